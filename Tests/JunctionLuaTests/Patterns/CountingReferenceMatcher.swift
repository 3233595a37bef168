import Foundation  // isalpha, tolower, …: C's ctype, in the C locale as in Lua

/// A plain backtracking matcher of Lua patterns for the tests, written apart from
/// `LuaPatternMatcher` (it parses the pattern into items first, then matches them by
/// recursion, and asks C's `ctype.h` about classes), which counts the work any such
/// matcher does: each start position tried, each single-character test, each backtrack
/// (trying the rest of the pattern again after a repetition or an optional item), each
/// byte a back-reference compares and each byte `%b` scans.
///
/// It gives up (`init` returns `nil`) on malformed patterns, and marks ``invalid`` when
/// matching reaches what Lua raises an error for.
struct CountingReferenceMatcher {
    enum Repetition { case once, greedy, atLeastOnce, lazy, optional }

    enum Item {
        case single([Bool], Repetition)
        case open, position, close
        case backReference(Int)
        case balance(UInt8, UInt8)
        case frontier([Bool])
        case end
    }

    /// A capture: its start and length; -1 while open, -2 for a position.
    struct Capture: Equatable {
        var start: Int
        var length: Int
    }

    let items: [Item]
    let subject: [UInt8]
    /// The work counted so far.
    private(set) var work = 0
    private(set) var captures: [Capture] = []
    /// Set when matching reached an invalid back-reference or `)`.
    private(set) var invalid = false

    init?(pattern: [UInt8], subject: [UInt8]) {
        guard let items = Self.parse(pattern) else { return nil }
        self.items = items
        self.subject = subject
    }

    // MARK: - Parsing

    private static func parse(_ pattern: [UInt8]) -> [Item]? {
        func byte(_ index: Int) -> UInt8 { index < pattern.count ? pattern[index] : 0 }
        var items: [Item] = []
        var index = 0
        while index < pattern.count {
            switch (pattern[index], byte(index + 1)) {
            case (UInt8(ascii: "("), UInt8(ascii: ")")):
                items.append(.position)
                index += 2
            case (UInt8(ascii: "("), _):
                items.append(.open)
                index += 1
            case (UInt8(ascii: ")"), _):
                items.append(.close)
                index += 1
            case (UInt8(ascii: "$"), _) where index == pattern.count - 1:
                items.append(.end)
                index += 1
            case (UInt8(ascii: "%"), UInt8(ascii: "b")):
                guard index + 3 < pattern.count else { return nil }
                items.append(.balance(pattern[index + 2], pattern[index + 3]))
                index += 4
            case (UInt8(ascii: "%"), UInt8(ascii: "f")):
                guard byte(index + 2) == UInt8(ascii: "["), let (set, next) = parseClass(pattern, at: index + 2) else {
                    return nil
                }
                items.append(.frontier(set))
                index = next
            case (UInt8(ascii: "%"), let digit) where isdigit(Int32(digit)) != 0:
                items.append(.backReference(Int(digit) - Int(UInt8(ascii: "0"))))
                index += 2
            default:
                guard let (set, next) = parseClass(pattern, at: index) else { return nil }
                let repetition: Repetition
                switch byte(next) {
                case UInt8(ascii: "*"): repetition = .greedy
                case UInt8(ascii: "+"): repetition = .atLeastOnce
                case UInt8(ascii: "-"): repetition = .lazy
                case UInt8(ascii: "?"): repetition = .optional
                default: repetition = .once
                }
                items.append(.single(set, repetition))
                index = repetition == .once ? next : next + 1
            }
        }
        return items
    }

    /// The bytes a single-character class matches, and the index after it.
    private static func parseClass(_ pattern: [UInt8], at start: Int) -> ([Bool], Int)? {
        func byte(_ index: Int) -> UInt8 { index < pattern.count ? pattern[index] : 0 }
        switch pattern[start] {
        case UInt8(ascii: "."):
            return ([Bool](repeating: true, count: 256), start + 1)
        case UInt8(ascii: "%"):
            guard start + 1 < pattern.count else { return nil }
            return ((0..<256).map { inClass(UInt8($0), pattern[start + 1]) }, start + 2)
        case UInt8(ascii: "["):
            var index = start + 1
            let negated = byte(index) == UInt8(ascii: "^")
            if negated { index += 1 }
            let first = index
            repeat {
                guard index < pattern.count else { return nil }
                index += pattern[index] == UInt8(ascii: "%") && index + 1 < pattern.count ? 2 : 1
            } while byte(index) != UInt8(ascii: "]")
            let close = index
            var members = [Bool](repeating: false, count: 256)
            var item = first
            while item < close {
                if pattern[item] == UInt8(ascii: "%") {
                    for value in 0..<256 where inClass(UInt8(value), pattern[item + 1]) { members[value] = true }
                    item += 2
                } else if item + 2 < close, pattern[item + 1] == UInt8(ascii: "-") {
                    if pattern[item] <= pattern[item + 2] {
                        for value in pattern[item]...pattern[item + 2] { members[Int(value)] = true }
                    }
                    item += 3
                } else {
                    members[Int(pattern[item])] = true
                    item += 1
                }
            }
            return (negated ? members.map { !$0 } : members, close + 1)
        default:
            let literal = pattern[start]
            return ((0..<256).map { $0 == Int(literal) }, start + 1)
        }
    }

    /// Whether `byte` is in `%letter`, as C's classification functions say.
    private static func inClass(_ byte: UInt8, _ letter: UInt8) -> Bool {
        let c = Int32(byte)
        let member: Bool
        switch UInt8(tolower(Int32(letter))) {
        case UInt8(ascii: "a"): member = isalpha(c) != 0
        case UInt8(ascii: "c"): member = iscntrl(c) != 0
        case UInt8(ascii: "d"): member = isdigit(c) != 0
        case UInt8(ascii: "g"): member = isgraph(c) != 0
        case UInt8(ascii: "l"): member = islower(c) != 0
        case UInt8(ascii: "p"): member = ispunct(c) != 0
        case UInt8(ascii: "s"): member = isspace(c) != 0
        case UInt8(ascii: "u"): member = isupper(c) != 0
        case UInt8(ascii: "w"): member = isalnum(c) != 0
        case UInt8(ascii: "x"): member = isxdigit(c) != 0
        case UInt8(ascii: "z"): member = byte == 0
        default: return byte == letter
        }
        return islower(Int32(letter)) != 0 ? member : !member
    }

    // MARK: - Matching

    /// The first start from `start` (only `start` when `anchored`) where the items match,
    /// with the end of the match; the captures are in ``captures``.
    mutating func search(from start: Int, anchored: Bool) -> (start: Int, end: Int)? {
        var position = start
        while true {
            work += 1
            captures = []
            if let end = match(0, position) { return (position, end) }
            if invalid || anchored || position >= subject.count { return nil }
            position += 1
        }
    }

    private mutating func test(_ set: [Bool], _ position: Int) -> Bool {
        work += 1
        return position < subject.count && set[Int(subject[position])]
    }

    /// The rest of the pattern tried again: a backtrack.
    private mutating func retry(_ item: Int, _ position: Int) -> Int? {
        work += 1
        return match(item, position)
    }

    private mutating func match(_ item: Int, _ position: Int) -> Int? {
        guard item < items.count, !invalid else { return invalid ? nil : position }
        switch items[item] {
        case .end:
            return position == subject.count ? position : nil
        case .single(let set, .once):
            return test(set, position) ? match(item + 1, position + 1) : nil
        case .single(let set, .optional):
            if test(set, position), let end = retry(item + 1, position + 1) { return end }
            return invalid ? nil : retry(item + 1, position)
        case .single(let set, .lazy):
            var count = 0
            while true {
                if let end = retry(item + 1, position + count) { return end }
                if invalid || !test(set, position + count) { return nil }
                count += 1
            }
        case .single(let set, let repetition):
            var count = 0
            while test(set, position + count) { count += 1 }
            let least = repetition == .atLeastOnce ? 1 : 0
            guard count >= least else { return nil }
            for taken in stride(from: count, through: least, by: -1) {
                if let end = retry(item + 1, position + taken) { return end }
                if invalid { return nil }
            }
            return nil
        case .open, .position:
            let isPosition = if case .position = items[item] { true } else { false }
            captures.append(Capture(start: position, length: isPosition ? -2 : -1))
            if let end = match(item + 1, position) { return end }
            captures.removeLast()
            return nil
        case .close:
            guard let open = captures.lastIndex(where: { $0.length == -1 }) else {
                invalid = true
                return nil
            }
            captures[open].length = position - captures[open].start
            if let end = match(item + 1, position) { return end }
            captures[open].length = -1
            return nil
        case .backReference(let number):
            let index = number - 1
            guard index >= 0, index < captures.count, captures[index].length != -1 else {
                invalid = true
                return nil
            }
            let capture = captures[index]
            guard capture.length >= 0, subject.count - position >= capture.length else { return nil }
            for offset in 0..<capture.length {
                work += 1
                if subject[capture.start + offset] != subject[position + offset] { return nil }
            }
            return match(item + 1, position + capture.length)
        case .balance(let open, let close):
            guard position < subject.count, subject[position] == open else { return nil }
            var depth = 1
            var scan = position + 1
            while scan < subject.count {
                work += 1
                if subject[scan] == close {
                    depth -= 1
                    if depth == 0 { return match(item + 1, scan + 1) }
                } else if subject[scan] == open {
                    depth += 1
                }
                scan += 1
            }
            return nil
        case .frontier(let set):
            work += 2
            let previous = position == 0 ? 0 : subject[position - 1]
            let current = position < subject.count ? subject[position] : 0
            return !set[Int(previous)] && set[Int(current)] ? match(item + 1, position) : nil
        }
    }

    // MARK: - Plain search

    /// The first index from `start` where `needle` occurs in `subject`, comparing byte by
    /// byte, and the bytes compared.
    static func plainFind(_ needle: [UInt8], in subject: [UInt8], from start: Int) -> (index: Int?, work: Int) {
        guard !needle.isEmpty else { return (start, 0) }
        guard needle.count <= subject.count - start else { return (nil, 0) }
        var work = 0
        for position in start...(subject.count - needle.count) {
            var offset = 0
            while offset < needle.count {
                work += 1
                if subject[position + offset] != needle[offset] { break }
                offset += 1
            }
            if offset == needle.count { return (position, work) }
        }
        return (nil, work)
    }
}
