internal import CLua

/// The ``SandboxPrelude`` compiled once per process into the binary chunk every state
/// loads: Lua's dump of it, less the names and scopes of its local variables.
///
/// Compiled from text in each state, the prelude kept a `LocVar` record and an interned
/// name for every local of every function it leaves behind, for the state's whole life:
/// some 5 KiB of each engine's heap for names no message shows, and with 100 rules enough
/// strings to double Lua's string table (9 KiB in all there, on Lua 5.4.4). Its line
/// numbers and upvalue names stay: an error raised inside the prelude still carries the
/// `junction/sandbox:LINE:` prefix that the message handler replaces with the rule's
/// position, and a C original the prelude calls through an upvalue is still named, as
/// in "bad argument #2 to 'insert'". Lua's own stripped dump (`lua_dump` with `strip`)
/// would drop those too. Loading a binary chunk also skips parsing the text per state.
///
/// Only the host loads binary chunks, and only this one (`jl_loadbinary`): bundle files
/// still go through `jl_loadtext`, and the sandbox's `load` through mode `"t"`, and both
/// refuse them.
enum PreludeChunk {
    /// Why the prelude could not be compiled: a defect in the prelude itself.
    struct CompileFailure: Error {
        var message: String
    }

    /// The chunk, compiled on first use; every state of the process loads the same bytes.
    static let compiled: Result<[UInt8], CompileFailure> = compile()

    /// Compiles the prelude in a scratch state and dumps it without local-variable names.
    private static func compile() -> Result<[UInt8], CompileFailure> {
        guard let state = luaL_newstate() else { return .failure(CompileFailure(message: "not enough memory")) }
        defer { lua_close(state) }
        let source = SandboxPrelude.source
        let status = jl_loadtext(
            state, UnsafeRawPointer(source.utf8Start).assumingMemoryBound(to: CChar.self), source.utf8CodeUnitCount,
            UnsafeRawPointer(SandboxPrelude.chunkName.utf8Start).assumingMemoryBound(to: CChar.self))
        guard status == LUA_OK else {
            return .failure(CompileFailure(message: String(cString: lua_tolstring(state, -1, nil))))
        }
        var buffer = DumpBuffer()
        defer { buffer.release() }
        let written = withUnsafeMutablePointer(to: &buffer) { pointer in
            lua_dump(state, DumpBuffer.writer, pointer, 0)
        }
        guard written == 0 else { return .failure(CompileFailure(message: "not enough memory to dump the prelude")) }
        // A dump this code cannot read (another Lua's format) is loaded whole: larger, but the same prelude.
        return .success((try? withoutLocalNames(buffer.contents)) ?? Array(buffer.contents))
    }

    /// `dump`, a chunk `lua_dump` wrote with its debug information, with every
    /// prototype's list of local variables emptied and all else byte for byte.
    static func withoutLocalNames(_ dump: UnsafeRawBufferPointer) throws -> [UInt8] {
        var reader = ChunkReader(bytes: dump)
        try reader.header()
        try reader.skip(1)  // the main function's upvalue count
        var lists: [Range<Int>] = []
        try reader.collectLocalVariableLists(into: &lists)
        guard reader.offset == dump.count else { throw ChunkReader.FormatError(offset: reader.offset) }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(dump.count)
        var copied = 0
        for list in lists {
            chunk.append(contentsOf: dump[copied..<list.lowerBound])
            chunk.append(0x80)  // `dumpSize(0)`: no locals
            copied = list.upperBound
        }
        chunk.append(contentsOf: dump[copied...])
        return chunk
    }
}

private extension ChunkReader {
    /// Reads one prototype and those nested in it, adding where each one's list of local
    /// variables (its count included) lies in the chunk.
    mutating func collectLocalVariableLists(into lists: inout [Range<Int>]) throws {
        _ = try string()  // source
        _ = try size()  // linedefined
        _ = try size()  // lastlinedefined
        try skip(3)  // numparams, is_vararg, maxstacksize
        try skip(4 * (try size()))  // code
        try skipConstants()
        try skip(3 * (try size()))  // upvalue descriptors
        for _ in 0..<(try size()) {
            try collectLocalVariableLists(into: &lists)
        }
        try skip(try size())  // line info
        for _ in 0..<(try size()) { _ = try size(); _ = try size() }  // absolute line info
        let start = offset
        for _ in 0..<(try size()) { _ = try string(); _ = try size(); _ = try size() }
        lists.append(start..<offset)
        for _ in 0..<(try size()) { _ = try string() }  // upvalue names
    }
}
