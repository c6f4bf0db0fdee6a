import Foundation
import SystemPackage

/// A file of the site: where it is on disk and how diagnostics name it.
public struct SourceFile: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Absolute path on disk.
    public let absolutePath: String
    /// Path relative to the site folder, used in messages.
    public let displayPath: String

    public init(absolutePath: String, displayPath: String) {
        self.absolutePath = absolutePath
        self.displayPath = displayPath
    }

    /// A file inside `root`, named relative to it.
    public init(root: String, relative: String) {
        self.absolutePath = (root as NSString).appendingPathComponent(relative)
        self.displayPath = relative
    }

    public func appending(_ component: String) -> SourceFile {
        SourceFile(
            absolutePath: (absolutePath as NSString).appendingPathComponent(component),
            displayPath: displayPath.isEmpty ? component : (displayPath as NSString).appendingPathComponent(component)
        )
    }

    // FilePath, not NSString: these are asked for every file of every build, and NSString's
    // bridging showed in build profiles.
    public var name: String { FilePath(absolutePath).lastComponent?.string ?? "" }
    public var stem: String { FilePath(absolutePath).lastComponent?.stem ?? "" }
    public var pathExtension: String { FilePath(absolutePath).lastComponent?.extension?.lowercased() ?? "" }

    public func location(line: Int = 1, column: Int = 1) -> SourceLocation {
        SourceLocation(displayPath, line: line, column: column)
    }

    public var description: String { displayPath }
}
