internal import CLua

/// Finds a bundle function that assigns to a variable outliving one evaluation — a
/// local of the file that the function captured (`local n = 0; function rule() n = n + 1 end`).
/// Sealing makes every table read-only, but such an assignment changes no table: it
/// writes an upvalue, which only the function's bytecode shows (`OP_SETUPVAL`).
///
/// Functions a rule creates while it runs may assign to that run's own locals; those die
/// with the evaluation and are allowed. The inspector follows each nested function's
/// upvalue descriptors to tell the two apart.
///
/// It also lists the lines that hold code in every function a chunk defines, nested ones
/// included (``nestedFunctionLines(ofTop:)``), for ``RuleCoverage``: the public C API
/// describes one function at a time, while a dump holds the whole tree of prototypes.
///
/// The same walk lists the globals such functions assign (`OP_SETTABUP` on an `_ENV` that
/// outlives one evaluation): after sealing, globals are read-only, so those assignments
/// fail whenever they run. They load — a function may never reach that line — and
/// `junction check` reports them (``RuleAnalysis/globalAssignments``).
///
/// Reads the Lua 5.4 binary chunk format (`ldump.c`), after checking its header.
enum BytecodeInspector {
    /// A function that assigns to a shared variable: where, and the variable's name.
    struct Finding: Error {
        var source: String
        var line: Int
        var variable: String
    }

    /// Inspects the function on top of the stack (left there), adding the globals it and
    /// the functions nested in it assign to `globalAssignments`.
    static func inspectTop(of state: OpaquePointer, globalAssignments: inout [RuleAnalysis.Use]) throws -> Finding? {
        try readingDump(ofTop: state) { reader in
            let upvalues = Int(try reader.byte())
            return try reader.function(
                persistent: Array(repeating: true, count: upvalues), parentSource: "?",
                globalAssignments: &globalAssignments)
        }
    }

    /// The lines holding code in the functions defined inside the function on top of the
    /// stack (left there), at any depth — not the lines of that function itself.
    ///
    /// A function's lines are those of its instructions, except two that no statement of
    /// its own stands for: the `OP_VARARGPREP` that opens a vararg function (on the
    /// `function` line), and the `return` Lua appends at `end`, which only runs when the
    /// body falls off its end — counting it would leave every function whose paths all
    /// `return` forever short of full coverage. That `end` line still counts when
    /// another instruction sits on it, or when the function holds nothing else.
    static func nestedFunctionLines(ofTop state: OpaquePointer) throws -> Set<Int> {
        try readingDump(ofTop: state) { reader in
            try reader.skip(1)  // the main function's upvalue count
            var lines = Set<Int>()
            try reader.functionLines(into: &lines, counted: false)
            return lines
        }
    }

    /// Dumps the function on top of the stack (debug information kept) and hands `read`
    /// a reader placed after the checked header.
    static func readingDump<Result>(
        ofTop state: OpaquePointer, _ read: (inout ChunkReader) throws -> Result
    ) throws -> Result {
        var buffer = DumpBuffer()
        defer { buffer.release() }
        _ = withUnsafeMutablePointer(to: &buffer) { pointer in
            lua_dump(state, DumpBuffer.writer, pointer, 0)
        }
        var reader = ChunkReader(bytes: UnsafeRawBufferPointer(start: buffer.bytes, count: buffer.count))
        try reader.header()
        return try read(&reader)
    }
}

/// What the inspector reads: which upvalues a function assigns, and its lines.
private extension ChunkReader {
    /// Reads one function prototype; `persistent[i]` tells whether its upvalue `i`
    /// outlives one evaluation.
    mutating func function(
        persistent: [Bool], parentSource: String, globalAssignments: inout [RuleAnalysis.Use]
    ) throws -> BytecodeInspector.Finding? {
        let source = try string() ?? parentSource
        let line = try size()
        _ = try size()  // lastlinedefined
        try skip(3)  // numparams, is_vararg, maxstacksize
        let instructionCount = try size()
        var assigned: [Int] = []
        var globalWrites: [(pc: Int, upvalue: Int, key: Int)] = []
        for pc in 0..<instructionCount {
            guard offset + 4 <= bytes.count else { throw FormatError(offset: offset) }
            let instruction = Instruction(raw: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            offset += 4
            let opcode = instruction.raw & 0x7F
            if opcode == Opcode.setUpvalue.rawValue {  // A B: UpValue[B] := R[A]
                assigned.append(instruction.b)
            } else if opcode == Opcode.setTableUpvalue.rawValue, instruction.a < persistent.count,
                persistent[instruction.a]
            {  // A B C: UpValue[A][K[B]] := RK(C)
                globalWrites.append((pc, instruction.a, instruction.b))
            }
        }
        // Most functions assign no global: their constants are skipped, not read.
        var constants: [String?] = []
        if globalWrites.isEmpty { try skipConstants() } else { constants = try stringConstants() }
        try skip(3 * (try size()))  // upvalue descriptors: judged by our parent, read by nestedFunction
        var finding: BytecodeInspector.Finding?
        for _ in 0..<(try size()) {
            let nested = try nestedFunction(
                parentPersistent: persistent, parentSource: source, globalAssignments: &globalAssignments)
            if finding == nil { finding = nested }
        }
        // Debug information: line info, absolute line info, locals, upvalue names.
        let deltaCount = try size()
        let deltas = offset
        try skip(deltaCount)
        var absolute: [(pc: Int, line: Int)] = []
        for _ in 0..<(try size()) {
            let entry = (pc: try size(), line: try size())
            if !globalWrites.isEmpty { absolute.append(entry) }
        }
        for _ in 0..<(try size()) {
            _ = try string()
            _ = try size()
            _ = try size()
        }
        var names: [String] = []
        for _ in 0..<(try size()) { names.append(try string() ?? "?") }
        if !globalWrites.isEmpty {
            guard deltaCount == instructionCount || deltaCount == 0 else { throw FormatError(offset: deltas) }
            var lines = LineCursor(
                bytes: bytes, deltas: deltas, count: deltaCount, absolute: absolute, lineDefined: line)
            let file = source.hasPrefix("=") || source.hasPrefix("@") ? String(source.dropFirst()) : source
            for write in globalWrites where write.upvalue < names.count && names[write.upvalue] == "_ENV" {
                guard write.key < constants.count, let name = constants[write.key] else { continue }
                globalAssignments.append(RuleAnalysis.Use(name: name, file: file, line: try lines.line(at: write.pc)))
            }
        }
        if let shared = assigned.first(where: { $0 < persistent.count && persistent[$0] }) {
            let name = shared < names.count ? names[shared] : "upvalue \(shared + 1)"
            return BytecodeInspector.Finding(source: source, line: line, variable: name)
        }
        return finding
    }

    /// Reads a nested prototype, whose upvalue descriptors (read before its code is
    /// judged) refer to the parent's registers (`instack`) or the parent's upvalues.
    private mutating func nestedFunction(
        parentPersistent: [Bool], parentSource: String, globalAssignments: inout [RuleAnalysis.Use]
    ) throws -> BytecodeInspector.Finding? {
        // Descriptors follow the code and constants, so read ahead, then come back.
        let start = offset
        _ = try string()
        _ = try size()
        _ = try size()
        try skip(3)
        try skip(4 * (try size()))
        try skipConstants()
        var persistent: [Bool] = []
        for _ in 0..<(try size()) {
            let inStack = try byte() != 0
            let index = Int(try byte())
            try skip(1)
            persistent.append(!inStack && index < parentPersistent.count && parentPersistent[index])
        }
        offset = start
        return try function(
            persistent: persistent, parentSource: parentSource, globalAssignments: &globalAssignments)
    }

    /// Reads one prototype and those nested in it, adding their lines to `lines` (this
    /// prototype's own only when `counted`), as ``nestedFunctionLines(ofTop:)`` describes.
    mutating func functionLines(into lines: inout Set<Int>, counted: Bool) throws {
        _ = try string()  // source
        let lineDefined = try size()
        _ = try size()  // lastlinedefined
        try skip(1)  // numparams
        let isVararg = try byte() != 0
        try skip(1)  // maxstacksize
        let instructionCount = try size()
        try skip(4 * instructionCount)
        try skipConstants()
        try skip(3 * (try size()))  // upvalue descriptors
        for _ in 0..<(try size()) {
            try functionLines(into: &lines, counted: true)
        }
        // Line info: one signed byte per instruction, the change from the previous
        // instruction's line (the first's from `linedefined`), or -128 when the line
        // is in the absolute list instead, as (pc, line) pairs in pc order.
        let deltaCount = try size()
        guard deltaCount == instructionCount || deltaCount == 0 else { throw FormatError(offset: offset) }
        let deltas = offset
        try skip(deltaCount)
        var absolute: [(pc: Int, line: Int)] = []
        for _ in 0..<(try size()) { absolute.append((try size(), try size())) }
        for _ in 0..<(try size()) {
            _ = try string()
            _ = try size()
            _ = try size()
        }  // locals
        for _ in 0..<(try size()) { _ = try string() }  // upvalue names
        guard counted, deltaCount > 0 else { return }

        var own = Set<Int>()
        var line = lineDefined
        var nextAbsolute = 0
        for pc in 0..<deltaCount {
            let delta = Int8(bitPattern: bytes[deltas + pc])
            if delta == -128 {
                guard nextAbsolute < absolute.count, absolute[nextAbsolute].pc == pc else {
                    throw FormatError(offset: deltas + pc)
                }
                line = absolute[nextAbsolute].line
                nextAbsolute += 1
            } else {
                line += Int(delta)
            }
            let isVarargPreparation = isVararg && pc == 0
            let isFinalReturn = pc == deltaCount - 1
            if isFinalReturn, !own.isEmpty { break }
            if !isVarargPreparation { own.insert(line) }
        }
        lines.formUnion(own)
    }
}
