import JunctionTestSupport

/// Random route regexes over a small alphabet, from the syntax ``RouteRegex`` and Swift's
/// `Regex` share, and random short subjects over the same alphabet: the inputs of the
/// differential test.
struct RegexGenerator {
    private var random: SplitMix64
    private var groupNames = 0
    /// Whether the last regex uses a shorthand (`\d`, `\W`, …).
    private(set) var usesShorthand = false
    /// The scalars the last regex names, so that subjects made of them match often.
    private var named: [String] = []

    /// Scalars below U+0300: ASCII (with metacharacters, a line feed, "_"), two Latin-1
    /// letters and the no-break space (white space, but not ASCII).
    static let narrowAlphabet: [String] = ["a", "b", "c", "1", " ", "-", ".", "é", "ÿ", "\u{A0}", "\n", "_"]
    /// Those and wider scalars: a combining acute accent, a CJK ideograph (3 UTF-8 bytes)
    /// and an emoji (4 bytes).
    static let wideAlphabet = narrowAlphabet + ["\u{301}", "中", "😀"]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// A subject of 0 to 6 scalars. Swift 6.3's `Regex` misreads `\w` before a scalar
    /// at or above U+0300 (`\w[^b]` does not match "_中"), so after a regex with a
    /// shorthand the subjects keep below it.
    mutating func subject() -> String {
        let alphabet = usesShorthand ? Self.narrowAlphabet : Self.wideAlphabet
        let own = named.filter(alphabet.contains)
        return (0..<random.next(below: 7)).map { _ in
            random.next(below: 2) == 0 && !own.isEmpty ? random.pick(own) : random.pick(alphabet)
        }.joined()
    }

    /// A regex at most `depth` groups deep.
    mutating func regex(depth: Int = 2) -> String {
        groupNames = 0
        usesShorthand = false
        named = []
        return alternation(depth: depth)
    }

    private mutating func alternation(depth: Int) -> String {
        let branches = random.next(below: 5) == 0 ? 2 : 1
        return (0..<branches).map { _ in sequence(depth: depth) }.joined(separator: "|")
    }

    private mutating func sequence(depth: Int) -> String {
        (0..<(1 + random.next(below: 3))).map { _ in quantified(depth: depth) }.joined()
    }

    private mutating func quantified(depth: Int) -> String {
        if depth > 0, random.next(below: 6) == 0 {
            // Groups repeat a little less: nested unbounded repetition is what makes a
            // backtracking reference slow, even on six scalars.
            let opening = random.pick(["(", "(?:", "(?<g\(groupNames)>"])
            groupNames += 1
            return opening + alternation(depth: depth - 1) + ")"
                + random.pick(["", "", "?", "{2}", "{0,2}", "*", "+?"])
        }
        let atom = self.atom()
        if atom == "^" || atom == "$" { return atom }
        return atom
            + random.pick(["", "", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "{,1}", "*?", "+?", "??", "{1,2}?"])
    }

    private mutating func atom() -> String {
        switch random.next(below: 10) {
        case 0, 1, 2: return literal()
        case 3: return "."
        case 4: return shorthand()
        case 5, 6: return characterClass()
        case 7: return random.next(below: 2) == 0 ? "^" : "$"
        default:
            let (escape, scalar) = random.pick([
                (#"\."#, "."), (#"\-"#, "-"), (#"\x61"#, "a"), (#"\u{E9}"#, "é"), (#"\n"#, "\n"), (#"\("#, "("),
            ])
            named.append(scalar)
            return escape
        }
    }

    private mutating func shorthand() -> String {
        usesShorthand = true
        return random.pick([#"\d"#, #"\w"#, #"\s"#, #"\D"#, #"\W"#, #"\S"#])
    }

    private mutating func literal() -> String {
        // A combining mark is escaped: after a metacharacter, Swift's parser refuses it raw.
        let (text, scalar) = random.pick([
            ("a", "a"), ("b", "b"), ("c", "c"), ("1", "1"), (" ", " "), ("é", "é"), ("_", "_"), ("中", "中"), ("😀", "😀"),
            (#"\u{301}"#, "\u{301}"),
        ])
        named.append(scalar)
        return text
    }

    private mutating func characterClass() -> String {
        var members = ""
        for _ in 0..<(1 + random.next(below: 3)) {
            switch random.next(below: 5) {
            case 0: members += random.pick(["a-b", "a-c", "0-9", "à-ÿ", #"\u{300}-\u{36F}"#, "一-龥"])
            case 1: members += shorthand()
            case 2: members += random.pick([#"\-"#, #"\."#, #"\]"#, #"\^"#, "."])
            default: members += literal()
            }
        }
        return "[" + (random.next(below: 3) == 0 ? "^" : "") + members + "]"
    }
}
