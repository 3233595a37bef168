import JunctionCore

extension FuzzTarget {
    /// The regexes of `:name(regex)` parameters: the first field (NUL-separated, at most 64
    /// bytes) is compiled with ``RouteRegex``, the second (at most 32 bytes) is the segment
    /// it is matched against.
    ///
    /// Asserted: a refusal's offset lies in 0 ... the regex's UTF-8 count and says why; a
    /// compiled regex has 1 ... ``RouteRegex/maximumProgramSize`` instructions; matching takes
    /// at most (scalars + 1) × ``RouteRegex/programSize`` NFA steps (the bound
    /// `RouteRegexLinearTimeTests` holds); `matchesWhole` on the text and on its UTF-8 bytes
    /// agrees with `measuredMatch` (the raw field, which may not be UTF-8, is matched too, for
    /// memory safety only).
    ///
    /// And differentially, as `RouteRegexDifferentialTests` does: against Swift's `Regex`
    /// (`.matchingSemantics(.unicodeScalar)` with ASCII-only digits, word characters and
    /// white space, `wholeMatch(in:)`), only when the regex is one `RegexGenerator` could
    /// write — its tokens, groups at most two deep — of at most 16 bytes, Swift compiles it
    /// too, and the subject is at most 6 scalars of the generator's
    /// alphabet (the narrow one, below U+0300, when the regex uses a shorthand: Swift 6.3
    /// misreads `\w` before wider scalars). Outside that subset the engines are not meant
    /// to agree, and the comparison is skipped.
    static let routeRegex = FuzzTarget(
        name: "route-regex",
        summary:
            "route regexes: refusals point inside, matching stays within the linear bound, and agrees with Swift's Regex on shared syntax"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let source = String(fuzzBytes: Array(input.field().prefix(64)))
        let raw = Array(input.field().prefix(32))
        let subject = String(fuzzBytes: raw)

        let regex: RouteRegex
        do throws(PatternSyntaxError) {
            regex = try RouteRegex(source)
        } catch {
            try require(
                (0...source.utf8.count).contains(error.offset), "a refusal's offset lies within the regex",
                "offset \(error.offset) of \(source.utf8.count) bytes in \(source.debugDescription): \(error.message)")
            try require(!error.message.isEmpty, "a refusal says why", source.debugDescription)
            return
        }
        try require(
            (1...RouteRegex.maximumProgramSize).contains(regex.programSize), "a program is within its size limit",
            "\(regex.programSize) instructions for \(source.debugDescription)")

        let (matches, steps) = regex.measuredMatch(subject)
        let bound = (subject.unicodeScalars.count + 1) * regex.programSize
        try require(
            steps <= bound, "matching stays within the linear bound",
            "\(steps) steps, bound \(bound): /\(source)/ on \(subject.debugDescription)")
        try require(
            regex.matchesWhole(subject) == matches, "matchesWhole agrees with measuredMatch",
            "/\(source)/ on \(subject.debugDescription)")
        let utf8 = Array(subject.utf8)
        let onBytes = utf8.withUnsafeBufferPointer { regex.matchesWhole($0) }
        try require(
            onBytes == matches, "matching the text and its UTF-8 bytes agree",
            "/\(source)/ on \(subject.debugDescription)")
        // The raw bytes reach the matcher's own UTF-8 decoding, truncated sequences included.
        _ = raw.withUnsafeBufferPointer { regex.matchesWhole($0) }

        // Both bounds keep the backtracker's time small: `(a|a|a|a)*` over n scalars is 4ⁿ
        // paths, and it is within 16 bytes.
        guard subject.unicodeScalars.count <= RouteRegexSharedSyntax.maximumSubjectScalars,
            source.utf8.count <= RouteRegexSharedSyntax.maximumSourceBytes,
            let usesShorthand = RouteRegexSharedSyntax.shorthandUse(in: source),
            RouteRegexSharedSyntax.isSubject(subject, narrow: usesShorthand),
            let reference = try? Regex(source)
        else { return }
        let configured = reference.matchingSemantics(.unicodeScalar)
            .asciiOnlyDigits().asciiOnlyWordCharacters().asciiOnlyWhitespace()
        let expected: Bool
        do {
            expected = (try configured.wholeMatch(in: subject)) != nil
        } catch {
            return
        }
        try require(
            matches == expected, "a route regex answers as Swift's Regex does on their shared syntax",
            "/\(source)/ on \(subject.debugDescription): Swift says \(expected)")
    }
}

/// The syntax `RegexGenerator` (Tests/JunctionCoreTests/RouteRegex) writes — what
/// ``RouteRegex`` and Swift's `Regex` share and the differential test compares them on —
/// recognised token by token, and the alphabets its subjects are drawn from.
enum RouteRegexSharedSyntax {
    /// The longest subject compared with Swift's `Regex`, a backtracker: the differential
    /// test's six.
    static let maximumSubjectScalars = 6
    /// The longest regex compared with it.
    static let maximumSourceBytes = 16

    /// Scalars below U+0300: ASCII (with metacharacters, a line feed, "_"), two Latin-1
    /// letters and the no-break space.
    static let narrowAlphabet: Set<UInt32> = [
        0x61, 0x62, 0x63, 0x31, 0x20, 0x2D, 0x2E, 0xE9, 0xFF, 0xA0, 0x0A, 0x5F,
    ]
    /// Those and a combining acute accent, a CJK ideograph and an emoji.
    static let wideAlphabet: Set<UInt32> = narrowAlphabet.union([0x301, 0x4E2D, 0x1F600])

    /// Whether `subject` is made of the generator's alphabet (the narrow one when `narrow`).
    static func isSubject(_ subject: String, narrow: Bool) -> Bool {
        let alphabet = narrow ? narrowAlphabet : wideAlphabet
        return subject.unicodeScalars.allSatisfy { alphabet.contains($0.value) }
    }

    /// Whether `source` uses a shorthand (`\d`, `\W`, …), when it is a regex the generator
    /// could write; `nil` when it is not.
    static func shorthandUse(in source: String) -> Bool? {
        var reader = Reader(Array(source.unicodeScalars))
        guard reader.alternation(depth: 2), reader.isAtEnd else { return nil }
        return reader.usesShorthand
    }

    private static let literals = ["a", "b", "c", "1", " ", "\u{E9}", "_", "\u{4E2D}", "\u{1F600}", #"\u{301}"#]
    private static let shorthands = [#"\d"#, #"\w"#, #"\s"#, #"\D"#, #"\W"#, #"\S"#]
    private static let escapes = [#"\."#, #"\-"#, #"\x61"#, #"\u{E9}"#, #"\n"#, #"\("#]
    private static let ranges = ["a-b", "a-c", "0-9", "\u{E0}-\u{FF}", #"\u{300}-\u{36F}"#, "\u{4E00}-\u{9FA5}"]
    private static let classEscapes = [#"\-"#, #"\."#, #"\]"#, #"\^"#, "."]
    /// Longest first, so that `*?` is not read as `*` and a stray `?`.
    private static let atomQuantifiers = [
        "{1,2}?", "{0,2}", "{1,}", "{,1}", "{2}", "*?", "+?", "??", "*", "+", "?",
    ]
    private static let groupQuantifiers = ["{0,2}", "{2}", "+?", "*", "?"]

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var position = 0
        var usesShorthand = false

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var isAtEnd: Bool { position >= scalars.count }

        /// Reads `token` when the text continues with it.
        mutating func take(_ token: String) -> Bool {
            var index = position
            for scalar in token.unicodeScalars {
                guard index < scalars.count, scalars[index] == scalar else { return false }
                index += 1
            }
            position = index
            return true
        }

        mutating func takeAny(_ tokens: [String]) -> Bool {
            tokens.contains { take($0) }
        }

        mutating func alternation(depth: Int) -> Bool {
            guard sequence(depth: depth) else { return false }
            while take("|") {
                guard sequence(depth: depth) else { return false }
            }
            return true
        }

        mutating func sequence(depth: Int) -> Bool {
            var items = 0
            while position < scalars.count, scalars[position] != "|", scalars[position] != ")" {
                guard item(depth: depth) else { return false }
                items += 1
            }
            return items > 0
        }

        mutating func item(depth: Int) -> Bool {
            // Anchors are never quantified.
            if take("^") || take("$") { return true }
            if depth > 0, groupOpening() {
                guard alternation(depth: depth - 1), take(")") else { return false }
                _ = takeAny(RouteRegexSharedSyntax.groupQuantifiers)
                return true
            }
            guard atom() else { return false }
            _ = takeAny(RouteRegexSharedSyntax.atomQuantifiers)
            return true
        }

        /// `(`, `(?:` or `(?<gN>`.
        mutating func groupOpening() -> Bool {
            if take("(?:") { return true }
            if take("(?<g") {
                var digits = 0
                while position < scalars.count, (0x30...0x39).contains(scalars[position].value) {
                    position += 1
                    digits += 1
                }
                return digits > 0 && take(">")
            }
            return take("(")
        }

        mutating func atom() -> Bool {
            if take(".") { return true }
            if shorthand() { return true }
            if take("[") { return classBody() }
            if takeAny(RouteRegexSharedSyntax.escapes) { return true }
            return takeAny(RouteRegexSharedSyntax.literals)
        }

        mutating func shorthand() -> Bool {
            guard takeAny(RouteRegexSharedSyntax.shorthands) else { return false }
            usesShorthand = true
            return true
        }

        mutating func classBody() -> Bool {
            _ = take("^")
            var members = 0
            while !take("]") {
                guard position < scalars.count, member() else { return false }
                members += 1
            }
            return members > 0
        }

        mutating func member() -> Bool {
            takeAny(RouteRegexSharedSyntax.ranges) || shorthand()
                || takeAny(RouteRegexSharedSyntax.classEscapes) || takeAny(RouteRegexSharedSyntax.literals)
        }
    }
}
