/// One run of a route regex over one segment: a Thompson NFA simulation. All states
/// alive after the same prefix are advanced together by the next scalar, and a state
/// joins a generation at most once (its mark holds the last generation it joined), so
/// each scalar costs at most one step per instruction — no input makes it backtrack.
///
/// It works in caller-provided scratch of `4 × program.count + 1` integers: the consuming
/// states of the current and next generations, the marks, and the stack that follows
/// `split`s (one entry per `split` marked, plus the start).
struct RegexMachine {
    private let program: UnsafeBufferPointer<RegexInstruction>
    private let sets: UnsafeBufferPointer<ScalarSet>
    private let text: UnsafeBufferPointer<UInt8>
    private var current: UnsafeMutablePointer<Int32>
    private var next: UnsafeMutablePointer<Int32>
    private let marks: UnsafeMutablePointer<Int32>
    private let stack: UnsafeMutablePointer<Int32>
    private var currentCount = 0
    private var nextCount = 0
    private var matched = false
    /// States entered so far, over all generations: at most
    /// `program.count × (scalars + 1)`.
    private(set) var steps = 0

    /// The scratch integers a program of `size` instructions needs.
    static func scratchCount(forProgramSize size: Int) -> Int { size * 4 + 1 }

    init(
        program: UnsafeBufferPointer<RegexInstruction>, sets: UnsafeBufferPointer<ScalarSet>,
        text: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableBufferPointer<Int32>
    ) {
        precondition(
            scratch.count >= Self.scratchCount(forProgramSize: program.count), "scratch too small for the program")
        let size = program.count
        let base = scratch.baseAddress!
        self.program = program
        self.sets = sets
        self.text = text
        current = base
        next = base + size
        marks = base + 2 * size
        stack = base + 3 * size
        marks.initialize(repeating: -1, count: size)
    }

    /// Whether the program matches all of the text.
    mutating func run() -> Bool {
        var generation: Int32 = 0
        add(0, generation: generation, atStart: true, atEnd: text.isEmpty)
        advance()
        var position = 0
        while position < text.count {
            guard currentCount > 0 else { return false }
            let (scalar, width) = scalar(at: position)
            position += width
            generation += 1
            let atEnd = position == text.count
            for index in 0..<currentCount {
                let state = current[index]
                let accepts: Bool
                switch program[Int(state)] {
                case .scalar(let value): accepts = value == scalar
                case .set(let set): accepts = sets[Int(set)].contains(scalar)
                default: accepts = false
                }
                if accepts { add(state + 1, generation: generation, atStart: false, atEnd: atEnd) }
            }
            advance()
        }
        return matched
    }

    /// The next generation becomes the current one.
    @inline(__always)
    private mutating func advance() {
        swap(&current, &next)
        currentCount = nextCount
        nextCount = 0
    }

    /// Enters `start` and every state it reaches without consuming, into the next
    /// generation; `match` counts only at the end of the text, the match being whole.
    private mutating func add(_ start: Int32, generation: Int32, atStart: Bool, atEnd: Bool) {
        stack[0] = start
        var top = 1
        while top > 0 {
            top -= 1
            var state = stack[top]
            follow: while marks[Int(state)] != generation {
                marks[Int(state)] = generation
                steps += 1
                switch program[Int(state)] {
                case .scalar, .set:
                    next[nextCount] = state
                    nextCount += 1
                    break follow
                case .match:
                    if atEnd { matched = true }
                    break follow
                case .jump(let target):
                    state = target
                case .split(let first, let second):
                    stack[top] = second
                    top += 1
                    state = first
                case .assertStart:
                    guard atStart else { break follow }
                    state += 1
                case .assertEnd:
                    guard atEnd else { break follow }
                    state += 1
                }
            }
        }
    }

    /// The scalar at byte `offset` and its width; a byte that does not start valid UTF-8
    /// reads as U+FFFD, one byte wide.
    @inline(__always)
    private func scalar(at offset: Int) -> (value: UInt32, width: Int) {
        let lead = text[offset]
        return lead < 0x80 ? (UInt32(lead), 1) : multibyteScalar(at: offset)
    }

    private func multibyteScalar(at offset: Int) -> (value: UInt32, width: Int) {
        let replacement: (value: UInt32, width: Int) = (0xFFFD, 1)
        let lead = text[offset]
        var width: Int
        // The second byte's range excludes overlong forms, surrogates and values above U+10FFFF.
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: width = 2
        case 0xE0:
            width = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: width = 3
        case 0xED:
            width = 3
            upper = 0x9F
        case 0xF0:
            width = 4
            lower = 0x90
        case 0xF1...0xF3: width = 4
        case 0xF4:
            width = 4
            upper = 0x8F
        default: return replacement
        }
        guard offset + width <= text.count else { return replacement }
        var value = UInt32(lead) & (0xFF >> UInt32(width + 1))
        for index in 1..<width {
            let byte = text[offset + index]
            guard index == 1 ? (byte >= lower && byte <= upper) : (byte & 0xC0 == 0x80) else { return replacement }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, width)
    }
}
