/// Finds YAML aliases (`*name`) before the YAML parser sees the text.
///
/// Yams resolves an alias by sharing the anchored node and hashes mapping keys
/// recursively, so ten lines of nested aliases used as a key ("billion laughs") keep
/// the parser busy for hours. Route tables have no use for aliases, so the loader
/// refuses them. The scanner skips comments, quoted scalars and block scalars; an
/// alias is a `*` where a node starts (line start, or after `- `, `? `, `: `, `[`, `{`, `,`).
enum YAMLAliasScanner {
    /// The 1-based line and column (in Unicode scalars) of the first alias, or `nil`.
    static func firstAlias(in text: String) -> (line: Int, column: Int)? {
        var text = text
        return text.withUTF8 { bytes in
            // Most files have no "*" at all; the others are scanned byte by byte.
            guard bytes.contains(UInt8(ascii: "*")) else { return nil }
            return scan(bytes)
        }
    }

    private static func scan(_ characters: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int)? {
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        /// Where a node can start: after these (or at a line's start).
        func startsNode(_ byte: UInt8) -> Bool {
            switch byte {
            case newline, UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","): true
            default: false
            }
        }
        var line = 1
        var column = 0
        var quote: UInt8?  // inside '…' or "…"
        var escaped = false
        var blockIndent: Int?  // inside a block scalar: lines indented more than this
        var lineIndent = 0
        var atLineStart = true
        var previous: UInt8 = newline  // last non-space byte on this line
        var inComment = false
        var pendingBlock = false
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c & 0xC0 != 0x80 { column += 1 }  // continuation bytes do not start a column
            if c == newline {
                line += 1
                column = 0
                atLineStart = true
                lineIndent = 0
                inComment = false
                previous = newline
                if pendingBlock, quote == nil { blockIndent = blockIndent ?? -1 }
                i += 1
                continue
            }
            if atLineStart {
                if c == space {
                    lineIndent += 1
                    i += 1
                    continue
                }
                atLineStart = false
                if let indent = blockIndent {
                    if indent == -1 {
                        // First content line of the block scalar sets its indentation.
                        blockIndent = lineIndent
                        pendingBlock = false
                    }
                    if lineIndent >= blockIndent! && lineIndent > 0 {
                        // Block scalar content: skip the line.
                        while i < characters.count, characters[i] != newline { i += 1 }
                        continue
                    }
                    blockIndent = nil
                    pendingBlock = false
                }
            }
            if inComment {
                i += 1
                continue
            }
            if let open = quote {
                if escaped {
                    escaped = false
                } else if open == UInt8(ascii: "\"") && c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == open {
                    if open == UInt8(ascii: "'"), i + 1 < characters.count, characters[i + 1] == UInt8(ascii: "'") {
                        i += 2
                        column += 1
                        continue
                    }
                    quote = nil
                    previous = c
                }
                i += 1
                continue
            }
            switch c {
            case space, tab:
                if pendingBlock == false, previous == UInt8(ascii: "|") || previous == UInt8(ascii: ">") { pendingBlock = true }
            case UInt8(ascii: "#") where previous == newline || (i > 0 && (characters[i - 1] == space || characters[i - 1] == tab)):
                inComment = true
            case UInt8(ascii: "'") where startsNode(previous), UInt8(ascii: "\"") where startsNode(previous):
                quote = c
            case UInt8(ascii: "*") where startsNode(previous):
                if i + 1 < characters.count {
                    switch characters[i + 1] {
                    case space, tab, newline, UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"): break
                    default: return (line, column)
                    }
                }
            default:
                break
            }
            if c != space && c != tab {
                if previous == UInt8(ascii: "|") || previous == UInt8(ascii: ">") {
                    switch c {
                    case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
                    default: pendingBlock = false
                    }
                }
                if c == UInt8(ascii: "|") || c == UInt8(ascii: ">") {
                    pendingBlock = startsNode(previous)
                }
                previous = c
            }
            i += 1
        }
        return nil
    }
}
