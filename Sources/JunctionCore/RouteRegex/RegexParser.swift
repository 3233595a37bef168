/// Reads the text of a route regex into a ``RegexNode``, refusing — with what, where and
/// what to write instead — every construct ``RouteRegex`` does not run in linear time or
/// does not support. The grammar is in ``RouteRegex``'s documentation.
struct RegexParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// The whole regex.
    /// - Throws: `PatternSyntaxError` whose offset is a UTF-8 offset into the regex.
    mutating func parse() throws(PatternSyntaxError) -> RegexNode {
        let node = try alternation()
        if position < scalars.count {
            // `alternation` stops only at the end or at a ")" no group opened.
            throw error(
                "unbalanced \")\" at offset \(position); remove it or write \"\\)\" for the character", at: position)
        }
        return node
    }

    // MARK: - Errors

    /// An error at scalar offset `offset`; the thrown offset is in UTF-8 code units, as
    /// ``PatternSyntaxError`` counts them.
    private func error(_ message: String, at offset: Int) -> PatternSyntaxError {
        let utf8Offset = scalars[..<min(offset, scalars.count)].reduce(0) { $0 + UTF8.width($1) }
        return PatternSyntaxError(message: message, offset: utf8Offset)
    }

    /// The regex text from `start` to the current position, for quoting in a message.
    private func text(from start: Int, to end: Int? = nil) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<min(end ?? position, scalars.count)])
        return text
    }

    // MARK: - Structure

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ ahead: Int) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private mutating func alternation() throws(PatternSyntaxError) -> RegexNode {
        let start = position
        var branches = [try sequence()]
        while current == "|" {
            position += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : RegexNode(kind: .alternation(branches), offset: start)
    }

    private mutating func sequence() throws(PatternSyntaxError) -> RegexNode {
        let start = position
        var items: [RegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            let atom = try self.atom()
            items.append(try quantified(atom))
        }
        switch items.count {
        case 0: return RegexNode(kind: .empty, offset: start)
        case 1: return items[0]
        default: return RegexNode(kind: .concatenation(items), offset: start)
        }
    }

    private mutating func atom() throws(PatternSyntaxError) -> RegexNode {
        let start = position
        let scalar = scalars[position]
        switch scalar {
        case "(":
            return try group()
        case "[":
            position += 1
            return RegexNode(kind: .set(try characterClass(openedAt: start)), offset: start)
        case "\\":
            switch try escape() {
            case .scalar(let value): return RegexNode(kind: .scalar(value), offset: start)
            case .ranges(let ranges): return RegexNode(kind: .set(ScalarSet(ranges)), offset: start)
            }
        case ".":
            position += 1
            return RegexNode(kind: .set(ScalarSet(ScalarSet.lineBreakRanges, negated: true)), offset: start)
        case "^":
            position += 1
            return RegexNode(kind: .start, offset: start)
        case "$":
            position += 1
            return RegexNode(kind: .end, offset: start)
        case "*", "+", "?":
            throw error(
                "quantifier \"\(scalar)\" at offset \(start) has nothing to repeat; write \"\\\(scalar)\" for the character",
                at: start)
        case "{":
            if let quantifier = quantifier(at: start) {
                throw error(
                    "quantifier \"\(text(from: start, to: start + quantifier.length))\" at offset \(start) has nothing to repeat; write \"\\{\" for the character",
                    at: start)
            }
            throw error(
                "\"{\" at offset \(start) starts no repetition; write {m}, {m,} or {m,n}, or \"\\{\" for the character",
                at: start)
        default:
            position += 1
            return RegexNode(kind: .scalar(scalar.value), offset: start)
        }
    }

    private mutating func group() throws(PatternSyntaxError) -> RegexNode {
        let open = position
        position += 1
        if current == "?" {
            try groupPrefix(openedAt: open)
        }
        depth += 1
        guard depth <= RouteRegex.maximumNesting else {
            throw error(
                "groups nest more than \(RouteRegex.maximumNesting) deep at offset \(open); remove some", at: open)
        }
        let inner = try alternation()
        guard current == ")" else {
            throw error(
                "missing \")\" for the group opened at offset \(open); close it, or write \"\\(\" for the character",
                at: open)
        }
        position += 1
        depth -= 1
        return inner
    }

    /// Reads what follows `(?`: `:`, or `<name>` / `P<name>` (captures are not needed, so
    /// named groups are plain groups); refuses every other kind.
    private mutating func groupPrefix(openedAt open: Int) throws(PatternSyntaxError) {
        let kind = peek(1)
        let kindAfter = peek(2)
        let backtracking = "needs backtracking, which routes do not allow"
        switch kind {
        case ":":
            position += 2
            return
        case "=", "!":
            throw error(
                "lookahead \"\(text(from: open, to: open + 3))\" at offset \(open) \(backtracking); describe the whole segment without it",
                at: open)
        case "<" where kindAfter == "=" || kindAfter == "!":
            throw error(
                "lookbehind \"\(text(from: open, to: open + 4))\" at offset \(open) \(backtracking); describe the whole segment without it",
                at: open)
        case ">":
            throw error(
                "atomic group \"(?>\" at offset \(open) is not supported; write \"(?:\" — a route regex never backtracks, so it needs none",
                at: open)
        case "P" where kindAfter == "=":
            throw error(
                "back-reference \"(?P=\" at offset \(open) \(backtracking); repeat the group's pattern instead, or compare the values in a rule",
                at: open)
        case "<":
            position += 2
        case "P" where kindAfter == "<":
            position += 3
        case let flag?
        where flag == "-" || flag == "^"
            || (flag.isASCII && flag != "P" && flag != "R" && Bytes.isAlpha(UInt8(flag.value))):
            throw error(
                "inline flags \"\(text(from: open, to: open + 3))\" at offset \(open) are not supported; spell the cases out, e.g. \"[Aa]\"",
                at: open)
        default:
            throw error(
                "group syntax \"\(text(from: open, to: open + 3))\" at offset \(open) is not supported; use \"(…)\", \"(?:…)\" or \"(?<name>…)\"",
                at: open)
        }
        let nameStart = position
        while let scalar = current, scalar.isASCII, Self.isWordByte(UInt8(scalar.value)) { position += 1 }
        guard position > nameStart, current == ">", !("0"..."9").contains(scalars[nameStart]) else {
            throw error(
                "the group name at offset \(nameStart) must be letters, digits and \"_\", not starting with a digit, and end with \">\": \"(?<name>…)\"",
                at: nameStart)
        }
        position += 1
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        Bytes.isAlpha(byte) || Bytes.isDigit(byte) || byte == UInt8(ascii: "_")
    }

    // MARK: - Quantifiers

    /// The quantifier at `offset`, if one starts there: its bounds and length in scalars.
    /// Counts saturate just above the limit, so a huge count is reported, not overflowed.
    private func quantifier(at offset: Int) -> (min: Int, max: Int?, length: Int)? {
        guard offset < scalars.count else { return nil }
        switch scalars[offset] {
        case "*": return (0, nil, 1)
        case "+": return (1, nil, 1)
        case "?": return (0, 1, 1)
        case "{": break
        default: return nil
        }
        var i = offset + 1
        func number() -> Int? {
            var value: Int?
            while i < scalars.count, ("0"..."9").contains(scalars[i]) {
                let digit = Int(scalars[i].value - 0x30)
                value = min((value ?? 0) * 10 + digit, RouteRegex.maximumCount + 1)
                i += 1
            }
            return value
        }
        let lower = number()
        var upper = lower
        if i < scalars.count, scalars[i] == "," {
            i += 1
            upper = number()
            guard lower != nil || upper != nil else { return nil }
        }
        guard lower != nil || upper != nil, i < scalars.count, scalars[i] == "}" else { return nil }
        return (lower ?? 0, upper, i + 1 - offset)
    }

    private mutating func quantified(_ atom: RegexNode) throws(PatternSyntaxError) -> RegexNode {
        let start = position
        guard let (minimum, maximum, length) = quantifier(at: start) else { return atom }
        let written = text(from: start, to: start + length)
        // A bare anchor has nothing to repeat; one in a group, `(^)*`, is quantified as a group.
        switch atom.kind {
        case .start where atom.offset == start - 1, .end where atom.offset == start - 1:
            throw error(
                "quantifier \"\(written)\" at offset \(start) has nothing to repeat (an anchor matches no character); remove it",
                at: start)
        default: break
        }
        for count in [minimum, maximum ?? 0] where count > RouteRegex.maximumCount {
            throw error(
                "repetition \"\(written)\" at offset \(start) counts above the limit of \(RouteRegex.maximumCount); use \"*\" or \"+\" for any number",
                at: start)
        }
        if let maximum, maximum < minimum {
            throw error(
                "repetition \"\(written)\" at offset \(start) has its minimum above its maximum; write \"{\(maximum),\(minimum)}\"",
                at: start)
        }
        position += length
        if current == "?" {
            position += 1  // lazy: the same set of whole matches
        } else if current == "+" {
            throw error(
                "possessive quantifier \"\(written)+\" at offset \(start) is not supported; drop the \"+\" — a route regex never backtracks, so it needs none",
                at: start)
        }
        if let next = quantifier(at: position) {
            throw error(
                "quantifier \"\(text(from: position, to: position + next.length))\" at offset \(position) follows another quantifier; wrap the repeated part in \"(?:…)\" first",
                at: position)
        }
        return RegexNode(kind: .repetition(atom, min: minimum, max: maximum), offset: start)
    }

    // MARK: - Classes

    /// One member of a class or an escape: a scalar, or a shorthand's ranges.
    private enum Member {
        case scalar(UInt32)
        case ranges([ClosedRange<UInt32>])
    }

    /// Reads a class after its `[`.
    private mutating func characterClass(openedAt open: Int) throws(PatternSyntaxError) -> ScalarSet {
        let negated = current == "^"
        if negated { position += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        var empty = true
        while true {
            guard let scalar = current else {
                throw error(
                    "missing \"]\" for the class opened at offset \(open); close it, or write \"\\[\" for the character",
                    at: open)
            }
            let start = position
            if scalar == "]" {
                guard !empty else {
                    throw error(
                        "empty class \"\(text(from: open, to: position + 1))\" at offset \(open); write \"\\]\" for the character",
                        at: open)
                }
                position += 1
                return ScalarSet(ranges, negated: negated)
            }
            empty = false
            if scalar == "[" {
                throw error(
                    "\"[\" inside the class at offset \(start); write \"\\[\" for the character (nested classes and [:name:] are not supported)",
                    at: start)
            }
            if scalar == "&" || scalar == "-" || scalar == "~", peek(1) == scalar {
                throw error(
                    "\"\(scalar)\(scalar)\" inside the class at offset \(start) is a set operation, which is not supported; write \"\\\(scalar)\" for the character",
                    at: start)
            }
            let member = try classMember()
            let rangeFollows = current == "-" && peek(1) != nil && peek(1) != "]"
            switch member {
            case .ranges(let shorthand):
                if rangeFollows {
                    throw error(
                        "range at offset \(start) starts with \"\(text(from: start))\", a class, not a character; write \"\\-\" for the character",
                        at: start)
                }
                ranges += shorthand
            case .scalar where rangeFollows && peek(1) == "-":
                throw error(
                    "\"--\" inside the class at offset \(position) is a set operation, which is not supported; write \"\\-\" for the character",
                    at: position)
            case .scalar(let lower) where rangeFollows:
                position += 1
                let upperStart = position
                guard case .scalar(let upper) = try classMember() else {
                    throw error(
                        "range at offset \(start) ends with \"\(text(from: upperStart))\", a class, not a character; write \"\\-\" for the character",
                        at: start)
                }
                guard lower <= upper else {
                    throw error(
                        "range \"\(text(from: start))\" at offset \(start) is reversed; write \"\(text(from: upperStart))-\(text(from: start, to: upperStart - 1))\"",
                        at: start)
                }
                ranges.append(lower...upper)
            case .scalar(let value):
                ranges.append(value...value)
            }
        }
    }

    private mutating func classMember() throws(PatternSyntaxError) -> Member {
        if current == "\\" { return try escape() }
        position += 1
        return .scalar(scalars[position - 1].value)
    }

    // MARK: - Escapes

    /// Reads an escape at `\`, in or out of a class.
    private mutating func escape() throws(PatternSyntaxError) -> Member {
        let start = position
        guard let scalar = peek(1) else {
            throw error("\"\\\" at the end of the regex escapes nothing; write \"\\\\\" for the character", at: start)
        }
        position += 2
        let written = "\\\(scalar)"
        let backtracking =
            "needs backtracking, which routes do not allow; repeat the group's pattern instead, or compare the values in a rule"
        switch scalar {
        case "d": return .ranges(ScalarSet.digitRanges)
        case "w": return .ranges(ScalarSet.wordRanges)
        case "s": return .ranges(ScalarSet.spaceRanges)
        case "D": return .ranges(ScalarSet.complement(ScalarSet.digitRanges))
        case "W": return .ranges(ScalarSet.complement(ScalarSet.wordRanges))
        case "S": return .ranges(ScalarSet.complement(ScalarSet.spaceRanges))
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "v": return .scalar(0x0B)
        case "f": return .scalar(0x0C)
        case "r": return .scalar(0x0D)
        case "x", "u": return .scalar(try scalarValue(escapeAt: start))
        case "1"..."9":
            while let digit = current, ("0"..."9").contains(digit) { position += 1 }
            throw error("back-reference \"\(text(from: start))\" at offset \(start) \(backtracking)", at: start)
        case "k", "g":
            throw error("back-reference \"\(written)\" at offset \(start) \(backtracking)", at: start)
        case "b", "B", "A", "z", "Z", "G":
            throw error(
                "assertion \"\(written)\" at offset \(start) is not supported; describe the whole segment instead (it is matched whole: ^ and $ are implied)",
                at: start)
        case "p", "P":
            throw error(
                "Unicode property \"\(written)\" at offset \(start) is not supported; list the characters as ranges in a class, e.g. \"[a-zà-ÿ]\"",
                at: start)
        default:
            // ASCII punctuation and space stand for themselves; letters and digits would be
            // a guess at some other engine's meaning.
            guard scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F,
                !Self.isWordByte(UInt8(scalar.value)) || scalar == "_"
            else {
                throw error(
                    "unknown escape \"\(written)\" at offset \(start); escape only punctuation, or use \\d \\w \\s \\D \\W \\S \\t \\n \\v \\f \\r \\xHH \\u{HHHH}",
                    at: start)
            }
            return .scalar(scalar.value)
        }
    }

    /// The value of `\xHH`, `\x{H…}`, `\uHHHH` or `\u{H…}` once its letter is read.
    private mutating func scalarValue(escapeAt start: Int) throws(PatternSyntaxError) -> UInt32 {
        let letter = scalars[start + 1]
        let fixed = letter == "x" ? 2 : 4
        func hex(_ scalar: Unicode.Scalar?) -> UInt32? {
            guard let scalar, scalar.isASCII, let value = Bytes.hexValue(UInt8(scalar.value)) else { return nil }
            return UInt32(value)
        }
        var value: UInt32 = 0
        var digits = 0
        if current == "{" {
            position += 1
            while let digit = hex(current), digits < 8 {
                value = value * 16 + digit
                digits += 1
                position += 1
            }
            guard digits > 0, current == "}" else {
                throw error(
                    "\"\\\(letter){\" at offset \(start) needs hex digits and \"}\", e.g. \"\\\(letter){1F600}\"",
                    at: start)
            }
            position += 1
        } else {
            while digits < fixed, let digit = hex(current) {
                value = value * 16 + digit
                digits += 1
                position += 1
            }
            guard digits == fixed else {
                throw error(
                    "\"\\\(letter)\" at offset \(start) needs \(fixed) hex digits or \"{…}\", e.g. \"\\\(letter)\(fixed == 2 ? "41" : "00E9")\" or \"\\\(letter){1F600}\"",
                    at: start)
            }
        }
        guard Unicode.Scalar(value) != nil else {
            throw error("\"\(text(from: start))\" at offset \(start) is not a Unicode scalar value", at: start)
        }
        return value
    }
}
