/// Strings a simple regular expression may match whole, for building sample URLs of
/// routes with `:param(regex)` segments.
///
/// It reads literals, escapes (`\d \w \s`, their negations, escaped punctuation),
/// classes and ranges (`[A-Z0-9_-]`, `[^/]`), `.`, groups (`(…)`, `(?:…)`, `(?<name>…)`),
/// alternation and quantifiers (`? * + {n} {n,} {n,m}`, lazy or possessive). Anything
/// else — look-around, back-references, `\b`, flags, Unicode properties — makes it give
/// up. Its candidates are guesses: callers keep only those the compiled regex accepts.
struct RegexSampler {
    /// The regex, read.
    private indirect enum Node {
        case empty
        case literal(Unicode.Scalar)
        case set(ScalarSet)
        case sequence([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?)
    }

    /// A character class: the scalars in `ranges`, or every scalar outside them.
    private struct ScalarSet {
        var ranges: [ClosedRange<UInt32>]
        var negated: Bool

        static let digits = ScalarSet(ranges: [0x30...0x39], negated: false)
        static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A], negated: false)
        static let space = ScalarSet(ranges: [0x09...0x0D, 0x20...0x20], negated: false)

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            ranges.contains { $0.contains(scalar.value) } != negated
        }

        /// Safe characters tried for a negated class, in order.
        private static let alphabet: [Unicode.Scalar] = ["x", "7", "Q", "-", "_", "~", ".", "z", "A", "0"]

        /// A member: the lowest, the highest or the one after the lowest.
        func pick(_ variant: Int) -> Unicode.Scalar? {
            if negated {
                let outside = Self.alphabet.filter(contains)
                return outside.isEmpty ? nil : outside[min(variant, outside.count - 1)]
            }
            let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
            guard let first = sorted.first, let last = sorted.last else { return nil }
            switch variant {
            case 0: return Unicode.Scalar(first.lowerBound)
            case 1: return Unicode.Scalar(last.upperBound)
            default: return Unicode.Scalar(first.count > 1 ? first.lowerBound + 1 : first.lowerBound)
            }
        }
    }

    /// Why a regex is beyond this sampler.
    private struct Unsupported: Error {}

    private let scalars: [Unicode.Scalar]
    private var position = 0

    private init(_ regex: String) {
        scalars = Array(regex.unicodeScalars)
    }

    /// Up to three different strings the regex probably matches whole; none when it
    /// uses syntax the sampler does not read.
    /// - Parameter regex: The regex as written in the pattern.
    /// - Returns: The candidates, unverified.
    static func candidates(for regex: String) -> [String] {
        var sampler = RegexSampler(regex)
        guard let node = try? sampler.parseAlternation(), sampler.position == sampler.scalars.count else { return [] }
        var results: [String] = []
        for variant in 0..<3 {
            if let text = generate(node, variant: variant), !results.contains(text) { results.append(text) }
        }
        return results
    }

    // MARK: - Generating

    private static func generate(_ node: Node, variant: Int) -> String? {
        switch node {
        case .empty:
            return ""
        case .literal(let scalar):
            return String(Character(scalar))
        case .set(let set):
            return set.pick(variant).map { String(Character($0)) }
        case .sequence(let items):
            var text = ""
            for item in items {
                guard let part = generate(item, variant: variant) else { return nil }
                text += part
            }
            return text
        case .alternation(let branches):
            for offset in branches.indices {
                if let text = generate(branches[(variant + offset) % branches.count], variant: variant) { return text }
            }
            return nil
        case .repetition(let item, let minimum, let maximum):
            var count = variant == 0 ? Swift.max(minimum, 1) : variant == 1 ? minimum + 2 : minimum
            if let maximum { count = Swift.min(count, maximum) }
            guard let part = generate(item, variant: variant) else { return nil }
            return String(repeating: part, count: count)
        }
    }

    // MARK: - Parsing

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func next() throws(Unsupported) -> Unicode.Scalar {
        guard let scalar = current else { throw Unsupported() }
        position += 1
        return scalar
    }

    private mutating func parseAlternation() throws(Unsupported) -> Node {
        var branches = [try parseSequence()]
        while current == "|" {
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(Unsupported) -> Node {
        var items: [Node] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            items.append(try parseQuantifier(of: try parseAtom()))
        }
        return .sequence(items)
    }

    private mutating func parseAtom() throws(Unsupported) -> Node {
        let scalar = try next()
        switch scalar {
        case "(":
            if current == "?" {
                position += 1
                let kind = try next()
                if kind == "<", let name = current, name != "=", name != "!" {
                    while try next() != ">" {}
                } else if kind != ":" {
                    throw Unsupported()
                }
            }
            let inner = try parseAlternation()
            guard try next() == ")" else { throw Unsupported() }
            return inner
        case "[": return .set(try parseClass())
        case "\\": return try parseEscape()
        case ".": return .set(ScalarSet(ranges: [0x0A...0x0A], negated: true))
        case "^", "$": return .empty
        case "*", "+", "?", "{", ")", "]", "}": throw Unsupported()
        default: return .literal(scalar)
        }
    }

    private mutating func parseQuantifier(of atom: Node) throws(Unsupported) -> Node {
        let bounds: (Int, Int?)
        switch current {
        case "?": bounds = (0, 1)
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "{":
            position += 1
            let minimum = readNumber()
            var maximum: Int? = minimum
            if current == "," {
                position += 1
                maximum = current == "}" ? nil : readNumber()
            }
            guard let minimum, current == "}" else { throw Unsupported() }
            if let maximum, maximum < minimum { throw Unsupported() }
            bounds = (minimum, maximum)
        default:
            return atom
        }
        position += 1
        if current == "?" || current == "+" { position += 1 }  // lazy or possessive
        return .repetition(atom, min: bounds.0, max: bounds.1)
    }

    private mutating func readNumber() -> Int? {
        var digits = ""
        while let scalar = current, ("0"..."9").contains(scalar) {
            digits.unicodeScalars.append(scalar)
            position += 1
        }
        return digits.count <= 4 ? Int(digits) : nil
    }

    private mutating func parseEscape() throws(Unsupported) -> Node {
        let scalar = try next()
        switch scalar {
        case "d": return .set(.digits)
        case "w": return .set(.word)
        case "s": return .set(.space)
        case "D": return .set(ScalarSet(ranges: ScalarSet.digits.ranges, negated: true))
        case "W": return .set(ScalarSet(ranges: ScalarSet.word.ranges, negated: true))
        case "S": return .set(ScalarSet(ranges: ScalarSet.space.ranges, negated: true))
        case "A", "z", "Z": return .empty
        case "n": return .literal("\n")
        case "t": return .literal("\t")
        default:
            guard !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else { throw Unsupported() }
            return .literal(scalar)
        }
    }

    private mutating func parseClass() throws(Unsupported) -> ScalarSet {
        var set = ScalarSet(ranges: [], negated: false)
        if current == "^" {
            set.negated = true
            position += 1
        }
        var first = true
        while true {
            var scalar = try next()
            if scalar == "]", !first { return set }
            first = false
            // Nested classes and set operations.
            if scalar == "[" || (scalar == "&" && current == "&") { throw Unsupported() }
            if scalar == "\\" {
                let escaped = try next()
                switch escaped {
                case "d":
                    set.ranges += ScalarSet.digits.ranges
                    continue
                case "w":
                    set.ranges += ScalarSet.word.ranges
                    continue
                case "s":
                    set.ranges += ScalarSet.space.ranges
                    continue
                case "n": scalar = "\n"
                case "t": scalar = "\t"
                default:
                    guard !escaped.properties.isAlphabetic, !("0"..."9").contains(escaped) else { throw Unsupported() }
                    scalar = escaped
                }
            }
            if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                var upper = try next()
                if upper == "\\" { upper = try next() }
                guard scalar.value <= upper.value else { throw Unsupported() }
                set.ranges.append(scalar.value...upper.value)
            } else {
                set.ranges.append(scalar.value...scalar.value)
            }
        }
    }
}
