/// A place in a file: `routes.yaml:12:5`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as it was named to the loader.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// Creates a location.
    /// - Parameters:
    ///   - file: The file's name or path.
    ///   - line: 1-based line.
    ///   - column: 1-based column.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN`.
    public var description: String { "\(file):\(line):\(column)" }
}
