import JunctionCore
import JunctionTestSupport

/// Random subjects and patterns for the pattern tests: subjects over a small alphabet
/// (with a NUL and a byte above 127), patterns from every construct of Lua's patterns —
/// classes, sets, the four repetitions, anchors, captures, position captures,
/// back-references, `%b`, `%f` — and some malformed ones. Short subjects and at most a few
/// repetitions keep the worst case small enough for Lua's own matcher.
struct PatternCaseGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// Bytes a subject is made of: mostly letters, so that patterns match often.
    private static let subjectBytes: [UInt8] = Array("aaabbbcA1 (.)%-".utf8) + [0, 0xE9]

    /// Single-byte classes.
    private static let classes: [String] = [
        "a", "b", "c", "A", "1", " ", ".", "-", "]", "*", "^", "\u{0}",
        "%a", "%d", "%l", "%s", "%u", "%w", "%x", "%p", "%c", "%g", "%z", "%A", "%D", "%S", "%W", "%G",
        "%.", "%%", "%(", "%)", "%-", "%]",
        "[ab]", "[^ab]", "[a-c]", "[^a-c]", "[%a1]", "[]a]", "[^]a]", "[a-]", "[-a]", "[a%-c]", "[%]]", "[%w.]", "[.]",
        "[^%s]",
    ]

    private static let malformedEnds: [String] = ["%", "[a", "[", "[^", "[%", "%b", "%ba", "%f", "%fa", "(", ")"]

    mutating func subject() -> [UInt8] {
        (0..<random.next(below: 11)).map { _ in random.pick(Self.subjectBytes) }
    }

    mutating func pattern() -> [UInt8] {
        if random.chance(1) { return Array(String(repeating: "()", count: 33).utf8) }  // too many captures
        var text = random.chance(20) ? "^" : ""
        var repetitions = 0
        var open = 0
        var closed = 0
        for _ in 0...random.next(below: 7) {
            switch random.next(below: 24) {
            case 0..<12:
                text += random.pick(Self.classes)
                if repetitions < 3, random.chance(40) {
                    text += random.pick(["*", "+", "-", "?"])
                    repetitions += 1
                }
            case 12, 13:
                text += "("
                open += 1
            case 14, 15:
                text += open > 0 || random.chance(10) ? ")" : "()"
                open = max(open - 1, 0)
                closed += 1
            case 16:
                text += "()"
                closed += 1
            case 17, 18:
                let index = closed > 0 && random.chance(80) ? 1 + random.next(below: closed) : random.next(below: 4)
                text += "%" + String(min(index, 9))
            case 19:
                text += "%b" + random.pick(["()", "ab", "aa", "a)"])
            case 20:
                text += "%f" + random.pick(["[%a]", "[^a]", "[%z]", "[a-c]", "[%s]"])
            case 21:
                text += "$"
            case 22:
                text += "(" + random.pick(["a", "b", ".", "%a", "[ab]"]) + random.pick(["", "*", "+", "-", "?"]) + ")"
                closed += 1
                text += random.pick([".", "", "%a"]) + "%" + String(closed)
            default:
                if random.chance(30) { text += random.pick(Self.malformedEnds) }
            }
        }
        if open > 0, random.chance(60) { text += String(repeating: ")", count: open) }
        if random.chance(15) { text += "$" }
        return Array(text.utf8)
    }

    /// `init` for find, match and gmatch: mostly nothing or small integers from either end,
    /// sometimes past the end, a numeric string, an integral float or a fraction.
    mutating func start() -> RuleValue {
        switch random.next(below: 10) {
        case 0..<4: return .nil
        case 4..<8: return .int(Int64(random.next(below: 25) - 12))
        case 8: return random.pick([.int(100), .int(-100), .int(0)])
        default: return random.pick([.string("2"), .double(2), .double(1.5), .string("x")])
        }
    }

    /// `plain` for find.
    mutating func plain() -> RuleValue {
        random.pick([.nil, .nil, .bool(true), .bool(false), .int(1)])
    }

    /// A replacement for gsub as the harness reads it: a string, or the name of a table,
    /// a function, a number or a boolean (``LuaPatternHarness``, in the fuzz targets).
    mutating func replacement() -> RuleValue {
        .string(
            random.pick([
                "x", "", "%0", "%1", "%2", "<%1|%2>", "%%", "%", "a%", "%a", "%9", "[%0]",
                "table", "function", "number", "float", "boolean",
            ]))
    }

    /// `n` for gsub.
    mutating func limit() -> RuleValue {
        random.pick([.nil, .nil, .nil, .int(0), .int(1), .int(2), .int(-1), .string("2"), .double(1.5)])
    }

    /// One call: a function name and its arguments.
    mutating func call() -> (function: String, arguments: [RuleValue]) {
        let subject = RuleValue.bytes(subject())
        let pattern = RuleValue.bytes(pattern())
        switch random.next(below: 4) {
        case 0: return ("find", [subject, pattern, start(), plain()])
        case 1: return ("match", [subject, pattern, start()])
        case 2: return ("gmatch", [subject, pattern, start()])
        default: return ("gsub", [subject, pattern, replacement(), limit()])
        }
    }
}
