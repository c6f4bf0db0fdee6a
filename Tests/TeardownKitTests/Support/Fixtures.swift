import Foundation

/// Paths to the fixture sites next to these tests, and scratch folders.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// The repository itself is the demo site.
    static let demoSite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static func site(_ name: String) -> String { root + "/sites/" + name }
    static func invalid(_ name: String) -> String { root + "/invalid/" + name }

    static var invalidCases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/invalid")) ?? []).sorted()
    }

    /// A fresh empty folder, removed by the caller with `cleanup`.
    static func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "teardown-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Writes `text` to `path` under `root`, making its folders.
    static func write(_ text: String, to path: String, in root: String) throws {
        let full = root + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Copies a fixture into a scratch folder so a test can change it.
    static func copy(_ source: String) -> String {
        let target = temporaryFolder() + "/site"
        try? FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }
}
