import Foundation
import TeardownBase

/// `TEARDOWN_COUNTS=<file>`: `build` and `sync` count what they did (heads decoded, rows read,
/// pages planned…) and write the counts there, as JSON, when they end. The scaling tests run
/// the command so, in a process of its own as a user does; without it nothing is counted.
enum CountsFile {
    private static let path = ProcessInfo.processInfo.environment["TEARDOWN_COUNTS"].flatMap { $0.isEmpty ? nil : $0 }
    private static let tally = path.map { _ in CountTally() }

    static var counters: BuildCounters { tally?.counters ?? .none }

    static func write() {
        guard let path, let tally,
              // Counts of plain integers by name always serialize; should they not, nothing is written.
              let data = try? JSONSerialization.data(withJSONObject: tally.counts, options: [.sortedKeys, .prettyPrinted])
        else { return }
        if !FileManager.default.createFile(atPath: path, contents: data) {
            Terminal.report("warning: the counts could not be written to \(path)")
        }
    }
}
