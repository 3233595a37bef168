/// Where a YAML node starts: 1-based line and column, the column counted in Unicode
/// scalars as libyaml counts it.
package struct YAMLMark: Sendable, Equatable {
    /// The line, from 1.
    package var line: Int
    /// The column, from 1, in Unicode scalars.
    package var column: Int

    /// A mark at `line` and `column` (both from 1).
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
