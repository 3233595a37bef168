internal import CLua

/// The ``SandboxPrelude``'s files compiled once per process into the binary chunks every
/// state loads: Lua's dump of each, less the names and scopes of its local variables.
///
/// Lua compiling text keeps a `LocVar` record and an interned name for every local of
/// every function, for the state's whole life; the prelude's would be heap in every
/// engine for names no message shows. Its line numbers, its chunk names and its upvalue
/// names stay: an error raised inside the prelude still carries its position, such as
/// `junction/sandbox/libraries.lua:LINE:`, which the message handler replaces with the
/// rule's, and a C original the prelude calls through an upvalue is still named, as in
/// "bad argument #2 to 'insert'". Lua's own stripped dump
/// (`lua_dump` with `strip`) would drop those too. Loading binary chunks also skips parsing
/// the text per state.
///
/// Only the host loads binary chunks, and only these (`jl_loadbinary`): bundle files
/// still go through `jl_loadtext`, and the sandbox's `load` through mode `"t"`, and both
/// refuse them.
enum PreludeChunk {
    /// Why the prelude could not be compiled: a defect in the prelude itself.
    struct CompileFailure: Error {
        var message: String
    }

    /// Every file's chunk, indexed by ``SandboxPrelude/File``'s raw value, compiled on
    /// first use; every state of the process loads the same bytes. A failure in any file
    /// fails them all.
    static let chunks: Result<[[UInt8]], CompileFailure> = compile()

    /// The chunk of `prelude.lua`, the file a state runs first.
    static var compiled: Result<[UInt8], CompileFailure> {
        chunks.map { $0[SandboxPrelude.File.prelude.rawValue] }
    }

    /// Pushes `file` as a function, or an error message when it cannot be loaded, and
    /// returns `lua_load`'s status. Raises only when pushing the message does, and holds no
    /// Swift value then.
    static func push(_ file: SandboxPrelude.File, into state: OpaquePointer?) -> Int32 {
        guard let status = load(file, into: state) else {
            jl_pushstring(state, HostFunctions.cString(notCompiled))
            return LUA_ERRERR
        }
        return status
    }

    private static let notCompiled: StaticString = "the sandbox prelude did not compile"

    /// Loads `file`, pushing the function or `lua_load`'s error message, and returns its
    /// status; `nil`, with nothing pushed, when the prelude did not compile. Cannot raise:
    /// `lua_load` reads inside its own protected call.
    private static func load(_ file: SandboxPrelude.File, into state: OpaquePointer?) -> Int32? {
        guard case .success(let chunks) = chunks else { return nil }
        return chunks[file.rawValue].withUnsafeBytes { bytes in
            jl_loadbinary(
                state, bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: CChar.self), bytes.count,
                HostFunctions.cString(file.chunkName))
        }
    }

    /// Compiles every file in a scratch state and dumps each without local-variable names.
    private static func compile() -> Result<[[UInt8]], CompileFailure> {
        guard let state = luaL_newstate() else { return .failure(CompileFailure(message: "not enough memory")) }
        defer { lua_close(state) }
        var compiled: [[UInt8]] = []
        for file in SandboxPrelude.File.allCases {
            assert(compiled.count == file.rawValue, "SandboxPrelude.File's raw values count up from 0")
            switch compile(file, in: state) {
            case .success(let chunk): compiled.append(chunk)
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(compiled)
    }

    /// Compiles one file in `state` and dumps it without local-variable names.
    private static func compile(_ file: SandboxPrelude.File, in state: OpaquePointer) -> Result<[UInt8], CompileFailure>
    {
        let base = lua_gettop(state)
        defer { lua_settop(state, base) }
        let status = file.source.withUnsafeBytes { source in
            jl_loadtext(
                state, source.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: CChar.self), source.count,
                HostFunctions.cString(file.chunkName))
        }
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
        for _ in 0..<(try size()) {
            _ = try size()
            _ = try size()
        }  // absolute line info
        let start = offset
        for _ in 0..<(try size()) {
            _ = try string()
            _ = try size()
            _ = try size()
        }
        lists.append(start..<offset)
        for _ in 0..<(try size()) { _ = try string() }  // upvalue names
    }
}
