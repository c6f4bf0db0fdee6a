/// A position in a source file, printed the way editors and compilers expect (`path:line:col`).
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file, as a path relative to the site folder.
    public let path: String
    /// 1-based line.
    public let line: Int
    /// 1-based column.
    public let column: Int

    public init(_ path: String, line: Int = 1, column: Int = 1) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String { "\(path):\(line):\(column)" }
}
