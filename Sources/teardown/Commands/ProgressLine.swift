import Foundation
import TeardownBase

/// Shows how a build's long stages are going on standard error: a bar redrawn in place on a
/// terminal, a plain line now and then otherwise (a log file or CI). Images show from their
/// start; pages and the search index only once they have run a second, so a small rebuild
/// stays quiet.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let terminal = isatty(STDERR_FILENO) != 0
    private var stage: BuildProgress.Stage?
    private var started = Date()
    private var shown = false
    private var lastShown = Date.distantPast
    private var lastTenth = -1

    func update(_ progress: BuildProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        if progress.stage != stage {
            stage = progress.stage
            started = now
            shown = false
            lastShown = .distantPast
            lastTenth = -1
        }
        let elapsed = now.timeIntervalSince(started)
        let finished = progress.done == progress.total
        guard shown || progress.stage == .images || progress.stage == .waiting || (elapsed >= 1 && !finished) else { return }
        let rate = elapsed > 0 ? Double(progress.done) / elapsed : 0
        let left = rate > 0 ? Double(progress.total - progress.done) / rate : 0
        let label = Self.label(progress.stage)
        let figures = progress.stage == .waiting ? "\(progress.done) s, for up to \(progress.total) s"
            : "\(progress.done)/\(progress.total) \(label.unit)"
                + (progress.done > 0 && !finished ? String(format: " · %.1f/s · ", rate) + Self.duration(left) : "")
        if terminal {
            guard finished || now.timeIntervalSince(lastShown) >= 0.1 else { return }
            let width = 24, filled = progress.total > 0 ? width * progress.done / progress.total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            write("\r\u{1B}[2K\(label.title) [\(bar)] \(figures)" + (finished ? "\n" : ""))
        } else {
            let tenth = progress.total > 0 ? 10 * progress.done / progress.total : 10
            guard finished || (tenth > lastTenth && now.timeIntervalSince(lastShown) >= 2) || !shown else { return }
            lastTenth = tenth
            write("\(label.title): \(figures)\n")
        }
        shown = true
        lastShown = now
    }

    private static func label(_ stage: BuildProgress.Stage) -> (title: String, unit: String) {
        switch stage {
        case .images: ("Processing images", "images")
        case .pages: ("Rendering pages", "pages")
        case .search: ("Indexing for search", "index shards")
        case .waiting: ("Waiting for another process that holds the build state", "seconds")
        }
    }

    private static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? "\(whole / 60) min \(whole % 60) s left" : "\(whole) s left"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
