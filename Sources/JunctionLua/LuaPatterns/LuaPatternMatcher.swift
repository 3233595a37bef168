internal import Foundation  // memcmp

/// Lua 5.4's pattern matching over bytes — the semantics of `lstrlib.c`'s matcher, error
/// for error — counting its work, so that what a rule makes it do can be charged to the
/// instruction budget (Lua's own matcher runs in C, where the budget cannot stop it).
///
/// A step is one unit of constant work: taking up a pattern item (each start position,
/// each repetition tried and each backtrack enters ``match(_:_:)``), testing one subject
/// byte against a class, reading one byte of a set `[...]`, and comparing or scanning one
/// subject byte for a back-reference, `%b` or a plain search. Once ``steps`` exceed
/// ``allowance`` the matcher stops with ``Stop/budget``, undoing no more than it must.
///
/// Indices are byte offsets from the start of the subject and of the pattern; -1 means
/// "no match". The pattern is read as Lua reads it, a byte past its end being `\0`.
///
/// Invariant: a trivial value (`BitwiseCopyable`: pointers and integers only, captures
/// inline). The pattern functions keep one in their frame while Lua may raise, and a
/// `longjmp` past such a frame leaks nothing. It never calls Lua itself.
struct LuaPatternMatcher: BitwiseCopyable {
    /// Why the matcher stopped before finding out whether the pattern matches.
    enum Stop: BitwiseCopyable, Equatable {
        /// Its steps exceeded the allowance.
        case budget
        /// The pattern is malformed, or too complex, as Lua would have raised.
        case error(LuaPatternError)
    }

    /// How deep matching may recurse (Lua's `MAXCCALLS` for patterns).
    static let maximumDepth = 200

    let subject: UnsafePointer<UInt8>
    let subjectLength: Int
    let pattern: UnsafePointer<UInt8>
    let patternLength: Int
    /// The captures, ``level`` of them in use.
    var captures = LuaPatternCaptures()
    var level = 0
    /// The steps taken, and the most that may be taken.
    var steps = 0
    var allowance: Int
    /// Set when matching stopped; every result after it is meaningless.
    var stop: Stop?
    private var depthLeft = maximumDepth

    /// A matcher of `pattern` against `subject`, both valid while it is used, that may take
    /// `allowance` steps.
    init(
        subject: UnsafePointer<UInt8>, subjectLength: Int, pattern: UnsafePointer<UInt8>, patternLength: Int,
        allowance: Int
    ) {
        (self.subject, self.subjectLength) = (subject, subjectLength)
        (self.pattern, self.patternLength) = (pattern, patternLength)
        self.allowance = allowance
    }

    /// Charges `units` steps; `false` (and ``stop`` set) once they exceed the allowance.
    @inline(__always)
    mutating func spend(_ units: Int) -> Bool {
        steps &+= units
        guard steps > allowance else { return true }
        if stop == nil { stop = .budget }
        return false
    }

    /// Records `error` as the reason to stop; returns -1 for the caller to return.
    mutating func fail(_ error: LuaPatternError) -> Int {
        if stop == nil { stop = .error(error) }
        return -1
    }

    // MARK: - Searching

    /// Lua's search loop for `find` and `match`: the first start from `start` at which the
    /// whole pattern matches (only `start` itself when `anchored`), with the end of the match.
    /// `nil` when there is none, or when ``stop`` is set.
    mutating func search(from start: Int, anchored: Bool) -> (start: Int, end: Int)? {
        var position = start
        while true {
            level = 0
            let end = match(position, 0)
            if stop != nil { return nil }
            if end != -1 { return (position, end) }
            if anchored || position >= subjectLength { return nil }
            position += 1
        }
    }

    // MARK: - Matching

    /// Matches the pattern from `patternIndex` at the subject from `subjectIndex`: the end
    /// of the match, or -1. Lua's `match`; a loop where Lua's tail-recurses, a call where it
    /// recurses, so ``maximumDepth`` counts what Lua's limit counts.
    mutating func match(_ subjectIndex: Int, _ patternIndex: Int) -> Int {
        if depthLeft == 0 { return fail(.tooComplex) }
        depthLeft -= 1
        var s = subjectIndex
        var p = patternIndex
        items: while true {
            guard spend(1) else {
                s = -1
                break items
            }
            if p == patternLength { break items }
            switch pattern[p] {
            case UInt8(ascii: "("):
                s =
                    patternByte(p + 1) == UInt8(ascii: ")")
                    ? startCapture(s, p + 2, length: LuaPatternCapture.position)
                    : startCapture(s, p + 1, length: LuaPatternCapture.unfinished)
                break items
            case UInt8(ascii: ")"):
                s = endCapture(s, p + 1)
                break items
            case UInt8(ascii: "$") where p + 1 == patternLength:
                if s != subjectLength { s = -1 }
                break items
            case UInt8(ascii: "%"):
                switch patternByte(p + 1) {
                case UInt8(ascii: "b"):
                    s = matchBalance(s, p + 2)
                    if s == -1 { break items }
                    p += 4
                    continue items
                case UInt8(ascii: "f"):
                    p += 2
                    guard patternByte(p) == UInt8(ascii: "[") else {
                        s = fail(.missingFrontierSet)
                        break items
                    }
                    let end = classEnd(p)
                    guard end != -1 else {
                        s = -1
                        break items
                    }
                    let previous = s == 0 ? 0 : subject[s - 1]
                    if !matchesSet(previous, p, end - 1), matchesSet(subjectByte(s), p, end - 1) {
                        p = end
                        continue items
                    }
                    s = -1
                    break items
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    s = matchBackReference(s, pattern[p + 1])
                    if s == -1 { break items }
                    p += 2
                    continue items
                default:
                    break  // a class such as %a, below
                }
            default:
                break
            }
            // One single-byte class and the repetition that follows it, if any.
            let end = classEnd(p)
            guard end != -1 else {
                s = -1
                break items
            }
            let suffix = patternByte(end)
            guard singleMatch(s, p, end) else {
                if suffix == UInt8(ascii: "*") || suffix == UInt8(ascii: "?") || suffix == UInt8(ascii: "-") {
                    p = end + 1  // zero repetitions are enough
                    continue items
                }
                s = -1
                break items
            }
            switch suffix {
            case UInt8(ascii: "?"):
                let result = match(s + 1, end + 1)
                if result != -1 || stop != nil {
                    s = result
                    break items
                }
                p = end + 1
                continue items
            case UInt8(ascii: "+"): s = maxExpand(s + 1, p, end)
            case UInt8(ascii: "*"): s = maxExpand(s, p, end)
            case UInt8(ascii: "-"): s = minExpand(s, p, end)
            default:
                s += 1
                p = end
                continue items
            }
            break items
        }
        depthLeft += 1
        return s
    }

    /// The pattern byte at `index`; `\0` past the end, as in a Lua string.
    @inline(__always)
    private func patternByte(_ index: Int) -> UInt8 { index < patternLength ? pattern[index] : 0 }

    /// The subject byte at `index`; `\0` past the end, as in a Lua string.
    @inline(__always)
    private func subjectByte(_ index: Int) -> UInt8 { index < subjectLength ? subject[index] : 0 }

    /// The index just past the single-byte class at `start`. Lua's `classend`.
    private mutating func classEnd(_ start: Int) -> Int {
        var p = start + 1
        switch pattern[start] {
        case UInt8(ascii: "%"):
            if p == patternLength { return fail(.endsWithPercent) }
            return p + 1
        case UInt8(ascii: "["):
            if patternByte(p) == UInt8(ascii: "^") { p += 1 }
            repeat {  // the first byte is in the set even if it is "]"
                if p == patternLength { return fail(.missingSetEnd) }
                guard spend(1) else { return -1 }
                let byte = pattern[p]
                p += 1
                if byte == UInt8(ascii: "%"), p < patternLength { p += 1 }  // "%]" is not the end
            } while patternByte(p) != UInt8(ascii: "]")
            return p + 1
        default:
            return p
        }
    }

    /// Whether the subject byte at `s` matches the class from `p` to `end`. Lua's `singlematch`.
    @inline(__always)
    private mutating func singleMatch(_ s: Int, _ p: Int, _ end: Int) -> Bool {
        guard spend(1), s < subjectLength else { return false }
        let byte = subject[s]
        switch pattern[p] {
        case UInt8(ascii: "."): return true
        case UInt8(ascii: "%"): return LuaPatternClass.matches(byte, pattern[p + 1])
        case UInt8(ascii: "["): return matchesSet(byte, p, end - 1)
        default: return pattern[p] == byte
        }
    }

    /// Whether `byte` is in the set that opens at `open` and closes at `close`. Lua's
    /// `matchbracketclass`.
    private mutating func matchesSet(_ byte: UInt8, _ open: Int, _ close: Int) -> Bool {
        var p = open + 1
        var inside = true
        if pattern[p] == UInt8(ascii: "^") {
            inside = false
            p += 1
        }
        while p < close {
            guard spend(1) else { return false }
            let item = pattern[p]
            if item == UInt8(ascii: "%") {
                p += 1
                if LuaPatternClass.matches(byte, pattern[p]) { return inside }
            } else if pattern[p + 1] == UInt8(ascii: "-"), p + 2 < close {
                if item <= byte, byte <= pattern[p + 2] { return inside }
                p += 2
            } else if item == byte {
                return inside
            }
            p += 1
        }
        return !inside
    }

    /// As many repetitions of the class as match, then fewer until the rest matches. Lua's
    /// `max_expand`.
    private mutating func maxExpand(_ s: Int, _ p: Int, _ end: Int) -> Int {
        var count = 0
        while singleMatch(s + count, p, end) { count += 1 }
        if stop != nil { return -1 }
        while count >= 0 {
            let result = match(s + count, end + 1)
            if result != -1 || stop != nil { return result }
            count -= 1
        }
        return -1
    }

    /// The fewest repetitions of the class after which the rest matches. Lua's `min_expand`.
    private mutating func minExpand(_ start: Int, _ p: Int, _ end: Int) -> Int {
        var s = start
        while true {
            let result = match(s, end + 1)
            if result != -1 || stop != nil { return result }
            guard singleMatch(s, p, end) else { return -1 }
            s += 1
        }
    }

    /// Opens a capture (`length` says which kind) and matches the rest. Lua's `start_capture`.
    private mutating func startCapture(_ s: Int, _ p: Int, length: Int) -> Int {
        guard level < LuaPatternCaptures.capacity else { return fail(.tooManyCaptures) }
        captures[level] = LuaPatternCapture(start: s, length: length)
        level += 1
        let result = match(s, p)
        if result == -1 { level -= 1 }
        return result
    }

    /// Closes the innermost open capture and matches the rest. Lua's `end_capture`.
    private mutating func endCapture(_ s: Int, _ p: Int) -> Int {
        var open = level - 1
        while open >= 0, captures[open].length != LuaPatternCapture.unfinished { open -= 1 }
        guard open >= 0 else { return fail(.invalidPatternCapture) }
        captures[open].length = s - captures[open].start
        let result = match(s, p)
        if result == -1 { captures[open].length = LuaPatternCapture.unfinished }
        return result
    }

    /// `%1`–`%9` (and `%0`, always an error): the bytes of a closed capture again. Lua's
    /// `match_capture`.
    private mutating func matchBackReference(_ s: Int, _ digit: UInt8) -> Int {
        let index = Int(digit) - Int(UInt8(ascii: "1"))
        guard index >= 0, index < level, captures[index].length != LuaPatternCapture.unfinished else {
            return fail(.invalidCaptureIndex(index + 1))
        }
        let capture = captures[index]
        // A position capture has no bytes: Lua reads its length as a huge unsigned one.
        guard capture.length >= 0, subjectLength - s >= capture.length else { return -1 }
        guard spend(capture.length) else { return -1 }
        return memcmp(subject + capture.start, subject + s, capture.length) == 0 ? s + capture.length : -1
    }

    /// `%bxy`: from an `x` at `s` to the `y` that balances it. Lua's `matchbalance`.
    private mutating func matchBalance(_ start: Int, _ p: Int) -> Int {
        guard p < patternLength - 1 else { return fail(.missingBalanceArguments) }
        let open = pattern[p]
        let close = pattern[p + 1]
        guard spend(1), subjectByte(start) == open else { return -1 }
        var depth = 1
        var s = start + 1
        while s < subjectLength {
            guard spend(1) else { return -1 }
            let byte = subject[s]
            if byte == close {
                depth -= 1
                if depth == 0 { return s + 1 }
            } else if byte == open {
                depth += 1
            }
            s += 1
        }
        return -1
    }
}
