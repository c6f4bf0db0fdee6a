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

    // Not NSString, whose bridging showed in build profiles, and not a FilePath of the whole
    // path, whose parsing showed too (each part's layer link asks for its name): the last
    // component is cut out, and only it is parsed.
    public var name: String { lastComponent?.string ?? "" }
    public var stem: String { lastComponent?.stem ?? "" }
    public var pathExtension: String { lastComponent?.extension?.lowercased() ?? "" }

    private var lastComponent: FilePath.Component? {
        let bytes = absolutePath.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), bytes.index(after: slash) != bytes.endIndex else {
            return FilePath(absolutePath).lastComponent
        }
        return FilePath.Component(String(absolutePath[bytes.index(after: slash)...]))
    }

    public func location(line: Int = 1, column: Int = 1) -> SourceLocation {
        SourceLocation(displayPath, line: line, column: column)
    }

    public var description: String { displayPath }
}
