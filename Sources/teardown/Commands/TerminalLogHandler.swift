import Logging
import Foundation

/// The web servers' own log, in the command line's style: their warnings and errors printed as
/// ours are, and their routine lines ("server started", a request's trace) left out, because the
/// commands say those things themselves in words of their own.
///
/// `LOG_LEVEL` (trace, debug, info, notice, warning, error, critical) shows more when a server
/// misbehaves.
struct TerminalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    static func logger(_ label: String) -> Logger {
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return Logger(label: label) { _ in TerminalLogHandler(logLevel: level) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let details = metadata.merging(event.metadata ?? [:]) { _, new in new }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
        let text = "server: \(event.message)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        switch event.level {
        case .error, .critical: Terminal.error(text)
        case .warning: Terminal.warning(text)
        default: Terminal.report("\(event.level): \(text)")
        }
    }
}
