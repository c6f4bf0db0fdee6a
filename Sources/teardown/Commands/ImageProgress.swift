import Foundation

/// Shows how the image stage is going on standard error: a bar redrawn in place on a terminal,
/// a plain line now and then otherwise (a log file or CI).
final class ImageProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let terminal = isatty(STDERR_FILENO) != 0
    private var started: Date?
    private var lastShown = Date.distantPast
    private var lastTenth = -1

    func update(done: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        if started == nil { started = now }
        let elapsed = now.timeIntervalSince(started!)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let finished = done == total
        let figures = "\(done)/\(total) images" + (done > 0 ? String(format: " · %.1f/s · ", rate) + Self.duration(left) : "")
        if terminal {
            guard finished || now.timeIntervalSince(lastShown) >= 0.1 else { return }
            let width = 24, filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            write("\r\u{1B}[2KProcessing images [\(bar)] \(figures)" + (finished ? "\n" : ""))
        } else {
            let tenth = total > 0 ? 10 * done / total : 10
            guard finished || (tenth > lastTenth && now.timeIntervalSince(lastShown) >= 2) || done == 0 else { return }
            lastTenth = tenth
            write("Processing images: \(figures)\n")
        }
        lastShown = now
    }

    private static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 60 ? "\(whole / 60) min \(whole % 60) s left" : "\(whole) s left"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
