/// Turns a ``RegexNode`` into a Thompson NFA program (``RegexInstruction``s), within
/// ``RouteRegex/maximumProgramSize``. The size is worked out before anything is emitted,
/// so a regex over the limit costs one walk of its tree, not the program it would need.
struct RegexCompiler {
    private(set) var instructions: [RegexInstruction] = []
    private(set) var sets: [ScalarSet] = []

    /// Compiles `root`.
    /// - Parameters:
    ///   - root: The regex as read.
    ///   - utf8Offset: Maps a scalar offset of the regex to its UTF-8 offset, for errors.
    /// - Throws: `PatternSyntaxError` when the program would exceed the limit.
    init(_ root: RegexNode, utf8Offset: (Int) -> Int) throws(PatternSyntaxError) {
        let size = try Self.size(of: root, utf8Offset: utf8Offset) + 1
        instructions.reserveCapacity(size)
        emit(root)
        instructions.append(.match)
        assert(instructions.count == size, "the size computed and the program emitted disagree")
    }

    /// How many instructions `node` compiles to; throws at the first node (innermost,
    /// leftmost) that takes the program past the limit.
    private static func size(of node: RegexNode, utf8Offset: (Int) -> Int) throws(PatternSyntaxError) -> Int {
        let limit = RouteRegex.maximumProgramSize - 1  // one is the final `match`
        func checked(_ size: Int, at offset: Int) throws(PatternSyntaxError) -> Int {
            guard size <= limit else {
                throw PatternSyntaxError(
                    message:
                        "the regex needs more than \(RouteRegex.maximumProgramSize) instructions (the limit) by offset \(offset); use smaller counts, or \"*\" and \"+\"",
                    offset: utf8Offset(offset))
            }
            return size
        }
        switch node.kind {
        case .empty:
            return 0
        case .scalar, .set, .start, .end:
            return 1
        case .concatenation(let items):
            var total = 0
            for item in items {
                total = try checked(total + size(of: item, utf8Offset: utf8Offset), at: item.offset)
            }
            return total
        case .alternation(let branches):
            // A split and a jump for every branch but the last.
            var total = 0
            for (index, branch) in branches.enumerated() {
                let glue = index < branches.count - 1 ? 2 : 0
                total = try checked(total + size(of: branch, utf8Offset: utf8Offset) + glue, at: branch.offset)
            }
            return total
        case .repetition(let body, let minimum, let maximum):
            let one = try size(of: body, utf8Offset: utf8Offset)
            // A body that matches only "" repeats to "": nothing to emit (and nothing to
            // walk again and again when such repetitions nest).
            guard one > 0 else { return 0 }
            // Counts are at most `maximumCount` and `one` at most the limit: no overflow.
            let total: Int
            if let maximum {
                total = minimum * one + (maximum - minimum) * (one + 1)
            } else {
                total = minimum == 0 ? one + 2 : minimum * one + 1
            }
            return try checked(total, at: node.offset)
        }
    }

    private var next: Int32 { Int32(instructions.count) }

    /// Whether `node` compiles to no instruction (it matches only "").
    private static func emitsNothing(_ node: RegexNode) -> Bool {
        switch node.kind {
        case .empty: return true
        case .scalar, .set, .start, .end, .alternation: return false
        case .concatenation(let items): return items.allSatisfy(emitsNothing)
        case .repetition(let body, _, _): return emitsNothing(body)
        }
    }

    private mutating func emit(_ node: RegexNode) {
        switch node.kind {
        case .empty:
            break
        case .scalar(let value):
            instructions.append(.scalar(value))
        case .set(let set):
            let index = sets.firstIndex(of: set) ?? sets.count
            if index == sets.count { sets.append(set) }
            instructions.append(.set(Int32(index)))
        case .start:
            instructions.append(.assertStart)
        case .end:
            instructions.append(.assertEnd)
        case .concatenation(let items):
            for item in items { emit(item) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                guard index < branches.count - 1 else {
                    emit(branch)
                    break
                }
                let split = instructions.count
                instructions.append(.split(0, 0))
                emit(branch)
                jumps.append(instructions.count)
                instructions.append(.jump(0))
                instructions[split] = .split(Int32(split + 1), next)
            }
            for jump in jumps { instructions[jump] = .jump(next) }
        case .repetition(let body, let minimum, let maximum):
            emitRepetition(body, minimum: minimum, maximum: maximum)
        }
    }

    private mutating func emitRepetition(_ body: RegexNode, minimum: Int, maximum: Int?) {
        guard !Self.emitsNothing(body) else { return }  // matches only "", as sized
        if let maximum {
            for _ in 0..<minimum { emit(body) }
            // x{0,3} as (x(x(x)?)?)?: skipping one skips the rest.
            var splits: [Int] = []
            for _ in minimum..<maximum {
                splits.append(instructions.count)
                instructions.append(.split(0, 0))
                emit(body)
            }
            for split in splits { instructions[split] = .split(Int32(split + 1), next) }
        } else if minimum == 0 {
            // loop: split body, out; body; jump loop; out:
            let loop = instructions.count
            instructions.append(.split(0, 0))
            emit(body)
            instructions.append(.jump(Int32(loop)))
            instructions[loop] = .split(Int32(loop + 1), next)
        } else {
            // x{3,} as x x x+: loop: body; split loop, out
            for _ in 0..<(minimum - 1) { emit(body) }
            let loop = next
            emit(body)
            instructions.append(.split(loop, next + 1))
        }
    }
}
