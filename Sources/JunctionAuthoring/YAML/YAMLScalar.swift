/// A YAML scalar as written: its text, how it was written and its explicit tag. What it
/// means (an integer, a boolean, text) is for the reader to decide; see
/// `YAMLReader.plainScalar`.
package struct YAMLScalar: Sendable {
    /// How a scalar was written. Only a plain one can be anything but text.
    package enum Style: Sendable {
        /// Unquoted: `5`, `true`, `text`.
        case plain
        /// `'text'`.
        case singleQuoted
        /// `"text"`, with escapes.
        case doubleQuoted
        /// A `|` block.
        case literal
        /// A `>` block.
        case folded
    }

    /// The text, with quotes, escapes and folding already applied.
    package var text: String
    /// How it was written.
    package var style: Style
    /// The explicit tag (`!!str`, `!custom`) resolved to its full name, or `nil`.
    package var tag: String?

    /// A scalar of `text` written in `style`.
    package init(_ text: String, style: Style = .plain, tag: String? = nil) {
        self.text = text
        self.style = style
        self.tag = tag
    }

    /// Whether it was written without quotes or a block indicator.
    package var isPlain: Bool { style == .plain }
}
