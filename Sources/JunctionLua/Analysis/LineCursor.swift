/// The line of each instruction of one prototype, read from its dumped line info, walking
/// forward: one signed byte per instruction, the change from the previous instruction's
/// line (the first's from `linedefined`), or -128 when the line is in the absolute list
/// instead, as (pc, line) pairs in pc order (`ldebug.c`).
struct LineCursor {
    private let bytes: UnsafeRawBufferPointer
    /// Where the deltas start in `bytes`, and how many there are (0: no line info).
    private let deltas: Int
    private let count: Int
    private let absolute: [(pc: Int, line: Int)]
    private var nextAbsolute = 0
    private var pc = -1
    private(set) var line: Int

    /// - Parameters:
    ///   - bytes: The dump.
    ///   - deltas: The offset of the first delta.
    ///   - count: How many deltas there are: one per instruction, or none when stripped.
    ///   - absolute: The absolute line list.
    ///   - lineDefined: The prototype's `linedefined`.
    init(bytes: UnsafeRawBufferPointer, deltas: Int, count: Int, absolute: [(pc: Int, line: Int)], lineDefined: Int) {
        self.bytes = bytes
        self.deltas = deltas
        self.count = count
        self.absolute = absolute
        line = lineDefined
    }

    /// Moves to the instruction at `target`, at or after the current one, and returns its
    /// line (`linedefined` when there is no line info).
    mutating func line(at target: Int) throws -> Int {
        while pc < target, pc + 1 < count {
            pc += 1
            let delta = Int8(bitPattern: bytes[deltas + pc])
            if delta == -128 {
                guard nextAbsolute < absolute.count, absolute[nextAbsolute].pc == pc else {
                    throw ChunkReader.FormatError(offset: deltas + pc)
                }
                line = absolute[nextAbsolute].line
                nextAbsolute += 1
            } else {
                line += Int(delta)
            }
        }
        return line
    }
}
