import Foundation

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

    public var name: String { (absolutePath as NSString).lastPathComponent }
    public var stem: String { (name as NSString).deletingPathExtension }
    public var pathExtension: String { (name as NSString).pathExtension.lowercased() }

    public func location(line: Int = 1, column: Int = 1) -> SourceLocation {
        SourceLocation(displayPath, line: line, column: column)
    }

    public var description: String { displayPath }
}
