import JunctionCore
import JunctionLua

/// The bundle's Lua files, read as tokens when a finding needs them, to place findings
/// on the column of what they are about: bytecode and declarations know lines only.
///
/// Each file is tokenized once, in one pass (comments skipped, strings kept with their
/// raw text, long brackets and escapes followed), so a name inside a string or a comment
/// is never taken for code. A column counts characters (Unicode scalars) from 1.
final class LuaSourceText {
    /// What to look for on a line.
    enum Target {
        /// A name that is not a field: `rolout` in `rolout(...)`, not in `x.rolout`.
        case global(String)
        /// A field after `table.`: `encdoe` in `url.encdoe`.
        case field(table: String, name: String)
        /// A string literal of this value (escapes read as Lua reads them).
        case string(String)
        /// A string literal of this value beside `==` or `~=`.
        case compared(String)
        /// A name anywhere: `redirect` in `redirect { ... }`.
        case name(String)
    }

    /// Where to look around the line the bytecode or a declaration gives.
    enum Search {
        /// Code: the line, then those just before (an operand on a line of its own) and
        /// just after.
        case near
        /// A declaration: its first line and those after it that do not start another
        /// declaration (`redirect {` with `to = ...` further down).
        case declaration
    }

    private struct Token {
        enum Kind { case name, string, dot, colon, comparison, other }
        var kind: Kind
        var text: String
        var column: Int
    }

    private let texts: [String: String]
    private let directory: String?
    /// Each file's tokens, line by line (index 0 is line 1), made on first use.
    private var tokens: [String: [[Token]]] = [:]

    /// The names that start a declaration, where a declaration's search stops.
    private static let declarationNames: Set<String> = ["redirect", "interceptor", "group", "fallback"]

    /// - Parameters:
    ///   - sources: The bundle's Lua files.
    ///   - directory: The bundle's folder, which locations name files inside.
    init(sources: [RuleSource], directory: String?) {
        texts = Dictionary(sources.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        self.directory = directory
    }

    /// The path of the bundle file `file` (`rules.lua`), inside the bundle's folder.
    func path(of file: String) -> String {
        directory.map { $0.hasSuffix("/") ? $0 + file : $0 + "/" + file } ?? file
    }

    /// Where the first of `targets` is, searching around `line` of `file`; without one,
    /// the line's first token, or its first column.
    func location(of targets: [Target], in file: String, line: Int, search: Search) -> SourceLocation {
        let lines = tokens(of: file)
        let candidates: [Int]
        switch search {
        case .near:
            candidates = [line, line - 1, line - 2, line + 1, line + 2]
        case .declaration:
            var following = [line]
            var next = line + 1
            while next <= min(lines.count, line + 20) {
                if let first = lines[next - 1].first, first.kind == .name, Self.declarationNames.contains(first.text) {
                    break
                }
                following.append(next)
                next += 1
            }
            candidates = following
        }
        for target in targets {
            for candidate in candidates where candidate >= 1 && candidate <= lines.count {
                if let column = Self.column(of: target, in: lines[candidate - 1]) {
                    return SourceLocation(file: path(of: file), line: candidate, column: column)
                }
            }
        }
        let first = line >= 1 && line <= lines.count ? lines[line - 1].first?.column : nil
        return SourceLocation(file: path(of: file), line: line, column: first ?? 1)
    }

    /// The location of a Lua declaration given as `"file.lua:12"` (``RuleDeclarations``),
    /// at the first of `targets` in it; `nil` when `text` has no line.
    func location(declaredAt text: String, _ targets: [Target]) -> SourceLocation? {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else { return nil }
        return location(of: targets, in: String(text[..<colon]), line: line, search: .declaration)
    }

    private static func column(of target: Target, in line: [Token]) -> Int? {
        func isField(_ index: Int) -> Bool { index > 0 && [.dot, .colon].contains(line[index - 1].kind) }
        for (index, token) in line.enumerated() {
            switch target {
            case .global(let name) where token.kind == .name && token.text == name && !isField(index):
                return token.column
            case .field(let table, let name) where token.kind == .name && token.text == name && isField(index):
                if index >= 2, line[index - 2].kind == .name, line[index - 2].text == table { return token.column }
            case .string(let text) where token.kind == .string && token.text == text:
                return token.column
            case .compared(let text) where token.kind == .string && token.text == text:
                let before = index > 0 && line[index - 1].kind == .comparison
                let after = index + 1 < line.count && line[index + 1].kind == .comparison
                if before || after { return token.column }
            case .name(let name) where token.kind == .name && token.text == name:
                return token.column
            default:
                continue
            }
        }
        return nil
    }

    private func tokens(of file: String) -> [[Token]] {
        if let made = tokens[file] { return made }
        let made = Self.tokenize(Array((texts[file] ?? "").utf8))
        tokens[file] = made
        return made
    }

    /// Lua's lexical structure (`llex.c`), as far as placing names needs it.
    private static func tokenize(_ bytes: [UInt8]) -> [[Token]] {
        var lines: [[Token]] = [[]]
        var index = 0
        var lineStart = 0
        var column = 1  // of `lineStart`; counted lazily below
        var columnAt = 0

        /// The column of byte `position` of the current line: one per scalar.
        func columnOf(_ position: Int) -> Int {
            if position < columnAt {
                columnAt = lineStart
                column = 1
            }
            while columnAt < position {
                if bytes[columnAt] & 0xC0 != 0x80 { column += 1 }
                columnAt += 1
            }
            return column
        }
        func newLine(at position: Int) {
            // `\r\n` and `\n\r` are one line break, as in Lua.
            var next = position + 1
            if next < bytes.count, bytes[next] != bytes[position], bytes[next] == 0x0A || bytes[next] == 0x0D {
                next += 1
            }
            lines.append([])
            lineStart = next
            columnAt = next
            column = 1
            index = next
        }
        func isNameStart(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
        }
        func isNamePart(_ byte: UInt8) -> Bool { isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) }
        /// The level of a long bracket opening at `position` (`[[` is 0, `[==[` is 2), if one does.
        func longBracket(at position: Int) -> Int? {
            guard position < bytes.count, bytes[position] == 0x5B else { return nil }
            var level = 0
            var next = position + 1
            while next < bytes.count, bytes[next] == 0x3D {
                level += 1
                next += 1
            }
            return next < bytes.count && bytes[next] == 0x5B ? level : nil
        }
        /// Skips a long bracket of `level` opened at `index`, line breaks included, and
        /// returns the range of its content.
        func skipLong(level: Int) -> Range<Int> {
            index += level + 2
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x5D {
                    var next = index + 1
                    var closing = 0
                    while next < bytes.count, bytes[next] == 0x3D {
                        closing += 1
                        next += 1
                    }
                    if closing == level, next < bytes.count, bytes[next] == 0x5D {
                        let content = start..<index
                        index = next + 1
                        return content
                    }
                    index += 1
                } else if byte == 0x0A || byte == 0x0D {
                    newLine(at: index)
                } else {
                    index += 1
                }
            }
            return start..<index
        }
        /// Reads the escape sequence at `index` (a backslash) in a short string, as Lua
        /// does, and returns the bytes it stands for; one it does not know stands for itself.
        func unescape() -> [UInt8] {
            let escaped = bytes[index + 1]
            let simple: [UInt8: UInt8] = [
                0x6E: 0x0A, 0x74: 0x09, 0x72: 0x0D, 0x61: 0x07, 0x62: 0x08, 0x66: 0x0C, 0x76: 0x0B, 0x5C: 0x5C,
                0x22: 0x22, 0x27: 0x27,
            ]
            if let byte = simple[escaped] {
                index += 2
                return [byte]
            }
            if escaped == 0x0A || escaped == 0x0D {  // a line break inside the string
                newLine(at: index + 1)
                return [0x0A]
            }
            if escaped == 0x7A {  // `\z` skips the white space that follows, line breaks too
                index += 2
                while index < bytes.count, [0x20, 0x09, 0x0B, 0x0C, 0x0A, 0x0D].contains(bytes[index]) {
                    if bytes[index] == 0x0A || bytes[index] == 0x0D { newLine(at: index) } else { index += 1 }
                }
                return []
            }
            func digits(from start: Int, radix: Int, atMost count: Int) -> (value: Int, end: Int)? {
                var value = 0
                var end = start
                while end < bytes.count, end - start < count,
                    let digit = Int(String(UnicodeScalar(bytes[end])), radix: radix)
                {
                    value = value * radix + digit
                    end += 1
                }
                return end > start ? (value, end) : nil
            }
            if escaped == 0x78, let (value, end) = digits(from: index + 2, radix: 16, atMost: 2), end == index + 4 {
                index = end  // `\xXX`
                return [UInt8(value)]
            }
            if escaped >= 0x30, escaped <= 0x39, let (value, end) = digits(from: index + 1, radix: 10, atMost: 3),
                value <= 255
            {
                index = end  // `\ddd`
                return [UInt8(value)]
            }
            if escaped == 0x75, index + 2 < bytes.count, bytes[index + 2] == 0x7B,
                let (value, end) = digits(from: index + 3, radix: 16, atMost: 8), end < bytes.count,
                bytes[end] == 0x7D, let scalar = UnicodeScalar(UInt32(clamping: value))
            {
                index = end + 1  // `\u{XXX}`
                return Array(String(scalar).utf8)
            }
            index += 2
            return [0x5C, escaped]
        }
        /// Skips a number: digits, letters (hex, exponents), dots, and a sign after an exponent.
        func skipNumber() {
            index += 1
            while index < bytes.count {
                let next = bytes[index]
                if isNamePart(next) || next == 0x2E {
                    index += 1
                } else if next == 0x2B || next == 0x2D, [0x65, 0x45, 0x70, 0x50].contains(bytes[index - 1]) {
                    index += 1
                } else {
                    break
                }
            }
        }
        func append(_ kind: Token.Kind, _ text: String = "", at position: Int, line: Int) {
            lines[line].append(Token(kind: kind, text: text, column: columnOf(position)))
        }

        while index < bytes.count {
            let byte = bytes[index]
            let line = lines.count - 1
            switch byte {
            case 0x0A, 0x0D:
                newLine(at: index)
            case 0x20, 0x09, 0x0B, 0x0C:
                index += 1
            case 0x2D where index + 1 < bytes.count && bytes[index + 1] == 0x2D:  // --
                if let level = longBracket(at: index + 2) {
                    index += 2
                    _ = skipLong(level: level)
                } else {
                    while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
                }
            case 0x5B where longBracket(at: index) != nil:
                let start = index
                let startColumn = columnOf(start)
                let content = skipLong(level: longBracket(at: index) ?? 0)
                lines[line].append(
                    Token(kind: .string, text: String(decoding: bytes[content], as: UTF8.self), column: startColumn))
            case 0x22, 0x27:  // " '
                let startColumn = columnOf(index)
                index += 1
                var value: [UInt8] = []
                while index < bytes.count, bytes[index] != byte, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    if bytes[index] == 0x5C, index + 1 < bytes.count {
                        value += unescape()
                    } else {
                        value.append(bytes[index])
                        index += 1
                    }
                }
                lines[line].append(
                    Token(kind: .string, text: String(decoding: value, as: UTF8.self), column: startColumn))
                if index < bytes.count, bytes[index] == byte { index += 1 }
            case _ where isNameStart(byte):
                let start = index
                while index < bytes.count, isNamePart(bytes[index]) { index += 1 }
                append(.name, String(decoding: bytes[start..<index], as: UTF8.self), at: start, line: line)
            case 0x30...0x39:
                skipNumber()
            case 0x2E where index + 1 < bytes.count && bytes[index + 1] >= 0x30 && bytes[index + 1] <= 0x39:
                skipNumber()
            case 0x2E:  // . .. ...
                var end = index + 1
                while end < bytes.count, end < index + 3, bytes[end] == 0x2E { end += 1 }
                append(end == index + 1 ? .dot : .other, at: index, line: line)
                index = end
            case 0x3A:  // : ::
                let double = index + 1 < bytes.count && bytes[index + 1] == 0x3A
                append(double ? .other : .colon, at: index, line: line)
                index += double ? 2 : 1
            // == ~=
            case _ where (byte == 0x3D || byte == 0x7E) && index + 1 < bytes.count && bytes[index + 1] == 0x3D:
                append(.comparison, at: index, line: line)
                index += 2
            default:
                append(.other, at: index, line: line)
                index += 1
            }
        }
        return lines
    }
}
