/// Finds YAML aliases (`*name`) before the YAML parser sees the text.
///
/// Yams resolves an alias by sharing the anchored node and hashes mapping keys
/// recursively, so ten lines of nested aliases used as a key ("billion laughs") keep
/// the parser busy for hours. Route tables have no use for aliases, so the loader
/// refuses them. The scanner skips comments, quoted scalars and block scalars; an
/// alias is a `*` where a node starts (line start, or after `- `, `? `, `: `, `[`, `{`, `,`).
enum YAMLAliasScanner {
    /// The 1-based line and column of the first alias, or `nil`.
    static func firstAlias(in text: String) -> (line: Int, column: Int)? {
        var line = 1
        var column = 0
        var quote: Character?  // inside '…' or "…"
        var escaped = false
        var blockIndent: Int?  // inside a block scalar: lines indented more than this
        var lineIndent = 0
        var atLineStart = true
        var previous: Character = "\n"  // last non-space character on this line
        var inComment = false
        var pendingBlock = false
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            column += 1
            if c == "\n" {
                line += 1
                column = 0
                atLineStart = true
                lineIndent = 0
                inComment = false
                previous = "\n"
                if pendingBlock, quote == nil { blockIndent = blockIndent ?? -1 }
                i += 1
                continue
            }
            if atLineStart {
                if c == " " {
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
                        while i < characters.count, characters[i] != "\n" { i += 1 }
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
                } else if open == "\"" && c == "\\" {
                    escaped = true
                } else if c == open {
                    if open == "'", i + 1 < characters.count, characters[i + 1] == "'" {
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
            case " ", "\t":
                if pendingBlock == false, previous == "|" || previous == ">" { pendingBlock = true }
            case "#" where previous == "\n" || (i > 0 && (characters[i - 1] == " " || characters[i - 1] == "\t")):
                inComment = true
            case "'" where "\n-?:[{,".contains(previous), "\"" where "\n-?:[{,".contains(previous):
                quote = c
            case "*" where "\n-?:[{,".contains(previous):
                if i + 1 < characters.count, !" \t\n,[]{}".contains(characters[i + 1]) {
                    return (line, column)
                }
            default:
                break
            }
            if c != " " && c != "\t" {
                if (previous == "|" || previous == ">") && !"+-0123456789".contains(c) { pendingBlock = false }
                if c == "|" || c == ">" {
                    pendingBlock = "\n-?:[{,".contains(previous)
                }
                previous = c
            }
            i += 1
        }
        return nil
    }
}
