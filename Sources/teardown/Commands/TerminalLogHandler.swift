import Logging
import Foundation

/// The servers' log, in the command line's style. Intake's own events (those with an `event`
/// field) print as its sentences; the web server's warnings and errors print as ours do, marked
/// `server:`; its routine lines ("server started", a request's trace) are info and below, left
/// out because the commands say those things in words of their own.
///
/// `LOG_LEVEL` (trace, debug, info, notice, warning, error, critical) shows more when a server
/// misbehaves.
struct TerminalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    static func logger(_ label: String) -> Logger {
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
        return Logger(label: label) { _ in TerminalLogHandler(logLevel: level) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.metadata?["event"] != nil {
            switch event.level {
            case .error, .critical: Terminal.error("\(event.message)")
            case .warning: Terminal.warning("\(event.message)")
            default: Terminal.log("\(event.message)")
            }
            return
        }
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
