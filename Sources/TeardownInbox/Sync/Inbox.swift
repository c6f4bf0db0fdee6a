import Foundation
import TeardownBase
import TeardownContent

/// One submission listed by an inbox: its id, its files and, for remote inboxes, their SHA-256.
public struct InboxSubmission: Sendable, Hashable {
    public let id: String
    public let files: [String]
    /// File name to 64 hex digits; empty for a folder inbox without a manifest.
    public let sha256: [String: String]
    /// Why the inbox could not read this submission at all (a bucket inbox's damaged manifest):
    /// it is rejected with this reason, and the others are reviewed.
    public var problem: String? = nil

    public init(id: String, files: [String], sha256: [String: String], problem: String? = nil) {
        self.id = id
        self.files = files
        self.sha256 = sha256
        self.problem = problem
    }

    /// Identifies this exact submission: the same id with other bytes is another one.
    package var checksum: String {
        files.sorted().map { "\($0)=\(sha256[$0] ?? "")" }.joined(separator: ",")
    }
}

/// Why an inbox could not be read at all (as opposed to one bad submission).
public struct InboxFailure: Error, CustomStringConvertible, Sendable {
    public let source: String
    public let reason: String
    /// This side failed to take the files (a full disk under the downloads folder), not the
    /// inbox: what could not be fetched is not yet fetched, never rejected.
    public var receiving = false
    public var description: String { "\(source): \(reason)" }
}

/// Where submissions come from: a folder, or an http(s) or ftp URL.
public protocol InboxSource: Sendable {
    var name: String { get }
    /// Every submission the inbox lists.
    func submissions() throws(InboxFailure) -> [InboxSubmission]
    /// The bytes of one file named by `submissions()`, at most `maxBytes` long.
    func fetch(_ file: String, maxBytes: Int) throws(InboxFailure) -> Data
    /// Whether every file must come with its SHA-256 in the manifest: over a network, a transfer
    /// cut short would otherwise be filed cut short.
    var requiresDigests: Bool { get }
    /// Called after a sync that changed the site: `listed` is what `submissions()` gave, and
    /// `settled` the ids that need not be looked at again (filed, present, taken down).
    func synced(listed: [InboxSubmission], settled: Set<String>)
}

extension InboxSource {
    public var requiresDigests: Bool { false }
    public func synced(listed: [InboxSubmission], settled: Set<String>) {}
}

public enum Inbox {
    /// How long a sync from a remote inbox may take in all, unless told otherwise.
    public static let defaultTimeout: TimeInterval = 600

    /// The source a `--from` argument names; `token` goes to http(s) inboxes. A remote inbox's
    /// downloads must all be done within `timeout` seconds from now: a server dripping a byte a
    /// second held a sync for as long as anyone waited.
    public static func source(_ location: String, scratch: String, token: String? = nil,
                              timeout: TimeInterval = defaultTimeout) -> any InboxSource {
        let lowered = location.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("ftp://") {
            return RemoteInbox(base: location, scratch: scratch, token: token, deadline: Date(timeIntervalSinceNow: timeout))
        }
        let path = lowered.hasPrefix("file://") ? String(location.dropFirst("file://".count)) : location
        return FolderInbox(folder: path)
    }

    /// `[A-Za-z0-9_-]{1,64}`: the same characters as any other name in a URL.
    package static func isValidID(_ id: String) -> Bool { id.utf8.count <= 64 && TextFile.isValidName(id) }

    /// The manifest.json contract: {"version": 1, "submissions": [{"id", "files", "sha256"}]}.
    package static func parseManifest(_ data: Data, source: String) throws(InboxFailure) -> [InboxSubmission] {
        struct Manifest: Decodable {
            struct Entry: Decodable {
                let id: String
                let files: [String]
                let sha256: [String: String]?
            }
            let version: Int
            let submissions: [Entry]
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw InboxFailure(source: source + "/manifest.json", reason: "not a valid inbox manifest: \(Self.describe(error))")
        }
        guard manifest.version == 1 else {
            throw InboxFailure(source: source + "/manifest.json",
                               reason: "manifest version \(manifest.version) is not supported; this version of Teardown reads version 1")
        }
        return manifest.submissions.map { InboxSubmission(id: $0.id, files: $0.files, sha256: $0.sha256 ?? [:]) }
    }

    private static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context):
            "missing '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "wrong type at \(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            context.debugDescription
        default:
            ErrorText.text(error)
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// A local inbox folder. Its manifest.json is optional: without one, files are grouped by the
/// id before their first dot.
package struct FolderInbox: InboxSource {
    package let folder: String
    package var name: String { folder }

    package func submissions() throws(InboxFailure) -> [InboxSubmission] {
        guard TextFile.isDirectory(folder) else { throw InboxFailure(source: folder, reason: "no such folder") }
        if FileSystem.exists(folder + "/manifest.json") {
            return try Inbox.parseManifest(try fetch("manifest.json", maxBytes: 64 << 20), source: folder)
        }
        let names = FileSystem.names(in: folder)
            .filter { !$0.hasPrefix(".") }.sorted()
        var groups: [String: [String]] = [:]
        for name in names {
            let id = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
            groups[id, default: []].append(name)
        }
        return groups.keys.sorted().map { InboxSubmission(id: $0, files: groups[$0]!, sha256: [:]) }
    }

    package func fetch(_ file: String, maxBytes: Int) throws(InboxFailure) -> Data {
        let path = folder + "/" + file
        // A symlink could make sync read a file from anywhere on the machine.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular
        else { throw InboxFailure(source: path, reason: "not a regular file") }
        if let size = attributes[.size] as? Int, size > maxBytes {
            throw InboxFailure(source: path, reason: "larger than \(maxBytes) bytes")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InboxFailure(source: path, reason: "cannot be read")
        }
        return data
    }
}
