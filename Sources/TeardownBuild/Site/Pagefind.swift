import Foundation
import TeardownBase

/// The Pagefind executable, which indexes the built pages into a `pagefind/` folder of static
/// files that the search page's script queries in the browser.
package struct Pagefind: Sendable {
    package let executable: String

    /// Finds Pagefind: `TEARDOWN_PAGEFIND` (a path; empty turns search off), `pagefind` on the
    /// PATH, or the binary inside PyPI's `pagefind-bin` package, whose location is remembered
    /// in the file `remembered` so a build does not start Python every time.
    package static func locate(remembered: String) -> Result<Pagefind, Unavailable> {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["TEARDOWN_PAGEFIND"] {
            guard !configured.isEmpty else { return .failure(Unavailable(reason: "TEARDOWN_PAGEFIND is empty")) }
            return isExecutable(configured) ? .success(Pagefind(executable: configured))
                : .failure(Unavailable(reason: "TEARDOWN_PAGEFIND names '\(configured)', which is not an executable"))
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            for name in ["pagefind", "pagefind_extended"] where isExecutable("\(folder)/\(name)") {
                return .success(Pagefind(executable: "\(folder)/\(name)"))
            }
        }
        if let data = FileManager.default.contents(atPath: remembered) {
            let path = String(decoding: data, as: UTF8.self)
            if isExecutable(path) { return .success(Pagefind(executable: path)) }
        }
        guard let path = pythonPackageExecutable(), isExecutable(path) else {
            return .failure(Unavailable(reason: "Pagefind is not installed (pip install pagefind-bin, or make deps)"))
        }
        // The remembered path is a memo; without its folder Pagefind is located again next time.
        try? FileManager.default.createDirectory(atPath: (remembered as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: remembered, contents: Data(path.utf8))
        return .success(Pagefind(executable: path))
    }

    package struct Unavailable: Error {
        package let reason: String
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Indexes every HTML page in `folder`, as pages of a site rooted there, writing the
    /// bundle to the folder `bundle`.
    package func index(_ folder: String, into bundle: String) throws(Failure) {
        let log = NSTemporaryDirectory() + "teardown-pagefind-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        defer { FileSystem.discard(log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--site", folder, "--output-path", bundle, "--silent"]
        guard let output = FileHandle(forWritingAtPath: log) else { throw Failure(description: "cannot write \(log)") }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(executable): \(ErrorText.text(error))")
        }
        process.waitUntilExit()
        // The log was read to its end; a failed close loses nothing.
        try? output.close()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = (FileManager.default.contents(atPath: log).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "\(executable) failed (status \(process.terminationStatus))"
                + (text.isEmpty ? "" : ": " + String(text.suffix(2000))))
        }
    }

    /// What identifies the executable's version cheaply: its path and file signature.
    package var signature: String {
        executable + ":" + (FileSystem.status(executable).map { String($0.signature, radix: 16) } ?? "")
    }

    private static func isExecutable(_ path: String) -> Bool {
        !path.isEmpty && access(path, X_OK) == 0 && !FileSystem.isDirectory(path)
    }

    private static func pythonPackageExecutable() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import pagefind_bin; print(pagefind_bin.get_executable())"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        // A binary that does not start is not a usable Pagefind: nil says so to the caller.
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
