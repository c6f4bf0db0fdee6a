import Foundation
import TeardownBase

/// Writes an inbox's manifest.json. Submissions that arrive while a write is under way are
/// gathered and written together by the next one (a group commit), so a burst of posts costs
/// a few manifest writes, not one each. Every write holds `.lock`, which `teardown moderate`
/// takes too, and reads the manifest afresh under it.
package final class ManifestJournal: Sendable {
    package let folder: String
    private let queue = DispatchQueue(label: "teardown.intake.manifest")
    private let state = Locked(State())

    private struct State {
        package var waiting: [(InboxSubmission, CheckedContinuation<Void, any Error>)] = []
        package var writing = false
    }

    package init(folder: String) { self.folder = folder }

    /// Returns once a manifest listing `entry` is on disk.
    package func append(_ entry: InboxSubmission) async throws(InboxFailure) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let start = state.withLock { state in
                    state.waiting.append((entry, continuation))
                    defer { state.writing = true }
                    return !state.writing
                }
                if start { queue.async { self.drain() } }
            }
        } catch let failure as InboxFailure {
            throw failure
        } catch {
            throw InboxFailure(source: folder + "/manifest.json", reason: ErrorText.text(error))
        }
    }

    private func drain() {
        while true {
            let batch = state.withLock { state in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.writing = false }
                return state.waiting
            }
            if batch.isEmpty { return }
            do {
                try update { $0 += batch.map(\.0) }
                batch.forEach { $0.1.resume() }
            } catch {
                batch.forEach { $0.1.resume(throwing: error) }
            }
        }
    }

    /// Reads the manifest under the lock, lets `change` edit its list, and writes it durably.
    package func update(_ change: (inout [InboxSubmission]) throws(InboxFailure) -> Void) throws(InboxFailure) {
        try locked { () throws(InboxFailure) in
            var entries = try read()
            try change(&entries)
            let path = folder + "/manifest.json"
            do {
                try FileSystem.writeAtomically(Self.encode(entries), to: path)
            } catch {
                throw InboxFailure(source: path, reason: "cannot be written: \(ErrorText.text(error))")
            }
        }
    }

    /// The manifest's entries, as they are on disk.
    package func read() throws(InboxFailure) -> [InboxSubmission] {
        let path = folder + "/manifest.json"
        guard FileSystem.exists(path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InboxFailure(source: path, reason: "cannot be read")
        }
        return try Inbox.parseManifest(data, source: folder)
    }

    /// Runs `body` holding `.lock`, which every process that changes the inbox takes.
    package func locked<T>(_ body: () throws(InboxFailure) -> T) throws(InboxFailure) -> T {
        let lock: Int32
        do {
            lock = try FileSystem.lock(folder + "/.lock")
        } catch {
            throw InboxFailure(source: error.path, reason: "cannot be locked: \(error.reason)")
        }
        defer { FileSystem.unlock(lock) }
        return try body()
    }

    /// One line per submission, so a manifest of thousands stays readable and diffs well.
    package static func encode(_ entries: [InboxSubmission]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        struct Entry: Encodable {
            let id: String
            let files: [String]
            let sha256: [String: String]
        }
        let lines = entries.map { entry in
            // Strings and arrays of them: encoding cannot fail.
            String(decoding: (try? encoder.encode(Entry(id: entry.id, files: entry.files, sha256: entry.sha256))) ?? Data(), as: UTF8.self)
        }
        let body = lines.isEmpty ? "" : "\n  " + lines.joined(separator: ",\n  ") + "\n"
        return Data("{\"version\": 1, \"submissions\": [\(body)]}\n".utf8)
    }
}
