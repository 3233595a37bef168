internal import CLua

extension ChunkScanner {
    /// Compiles each of `sources` again, without running it, and scans it.
    ///
    /// A scratch state compiles them, with no sandbox and nothing run: compiling needs
    /// nothing the engine has. It has no memory limit of its own; these texts compiled
    /// within the engine's when the bundle loaded, and compiling them again takes no more.
    /// - Parameters:
    ///   - sources: The bundle's files, in their order.
    ///   - names: What the sealed bundle defines.
    ///   - declared: Where each declared function is, by its index: the literal targets
    ///     of the `redirect` calls in the function of that span are its
    ///     ``RuleAnalysis/redirectTargets``, and those that read no `respond` its
    ///     ``RuleAnalysis/nonResponding``.
    /// - Returns: What the files' code uses, file by file in their order, by line.
    /// - Throws: `LuaError` when a file no longer compiles or its chunk cannot be read.
    static func analyze(
        _ sources: [RuleSource], names: GlobalNames, declared: [Int: FunctionSpan] = [:]
    ) throws(LuaError) -> RuleAnalysis {
        guard let state = luaL_newstate() else {
            throw LuaError(
                code: .memory, chunkName: "bundle", line: nil, message: "not enough memory to analyse the rules")
        }
        defer { lua_close(state) }
        var analysis = RuleAnalysis()
        var functionRedirects: [FunctionSpan: [RuleAnalysis.Use]] = [:]
        var respondReaders: [FunctionSpan] = []
        var versionRouting: Set<FunctionSpan> = []
        for source in sources {
            var scanner = ChunkScanner(names: names, file: source.name)
            try scanner.compileAndScan(source, in: state)
            analysis.undefinedGlobals += scanner.analysis.undefinedGlobals.sorted { $0.line < $1.line }
            analysis.undefinedFields += scanner.analysis.undefinedFields.sorted { $0.line < $1.line }
            analysis.sourceComparisons += scanner.analysis.sourceComparisons.sorted { $0.line < $1.line }
            analysis.contextReads += scanner.analysis.contextReads.sorted { $0.line < $1.line }
            analysis.unguardedContextReads += scanner.analysis.unguardedContextReads.sorted { $0.line < $1.line }
            analysis.requestFieldReads += scanner.analysis.requestFieldReads.sorted { $0.line < $1.line }
            analysis.versionLiterals += scanner.analysis.versionLiterals.sorted { $0.line < $1.line }
            analysis.contextOrderings += scanner.analysis.contextOrderings.sorted { $0.line < $1.line }
            // Files of one name are one file to a declared function's span: keep neither.
            functionRedirects.merge(scanner.functionRedirects) { _, _ in [] }
            respondReaders += scanner.respondingSpans
            versionRouting.formUnion(scanner.versionRoutingSpans)
        }
        for (index, span) in declared {
            guard let redirects = functionRedirects[span], !redirects.isEmpty else { continue }
            analysis.redirectTargets[index] = Self.unique(redirects)
        }
        analysis.versionRouting = Set(declared.filter { versionRouting.contains($0.value) }.keys)
        analysis.nonResponding = RespondingFunctions.nonResponding(declared: declared, readers: respondReaders)
        analysis.undefinedGlobals = Self.unique(analysis.undefinedGlobals)
        analysis.undefinedFields = Self.unique(analysis.undefinedFields)
        analysis.sourceComparisons = Self.unique(analysis.sourceComparisons)
        analysis.contextReads = Self.unique(analysis.contextReads)
        analysis.unguardedContextReads = Self.unique(analysis.unguardedContextReads)
        analysis.requestFieldReads = Self.unique(analysis.requestFieldReads)
        analysis.versionLiterals = Self.unique(analysis.versionLiterals)
        analysis.contextOrderings = Self.unique(analysis.contextOrderings)
        analysis.definedGlobals = names.sandbox.union(names.bundle).sorted()
        analysis.libraryFields = names.libraries.mapValues { $0.sorted() }
        return analysis
    }

    /// `items` without repeats, in their order (`sorted` is stable).
    static func unique<Item: Hashable>(_ items: [Item]) -> [Item] {
        var seen = Set<Item>()
        return items.filter { seen.insert($0).inserted }
    }

    /// Compiles `source` in `state` as the engine does (text only, chunk `=NAME`), dumps
    /// it with its debug information and scans the dump.
    private mutating func compileAndScan(_ source: RuleSource, in state: OpaquePointer) throws(LuaError) {
        let base = lua_gettop(state)
        defer { lua_settop(state, base) }
        var text = source.text
        let status = ("=" + source.name).withCString { name in
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { jl_loadtext(state, $0.baseAddress, $0.count, name) }
            }
        }
        guard status == LUA_OK else {
            var length = 0
            let message = lua_tolstring(state, -1, &length).map { String(cString: $0) } ?? "it does not compile"
            throw LuaError(
                code: status == LUA_ERRMEM ? .memory : .syntax, chunkName: source.name, line: nil,
                message: "cannot analyse the file: \(message)")
        }
        var buffer = DumpBuffer()
        defer { buffer.release() }
        let written = withUnsafeMutablePointer(to: &buffer) { lua_dump(state, DumpBuffer.writer, $0, 0) }
        guard written == 0 else {
            throw LuaError(
                code: .memory, chunkName: source.name, line: nil,
                message: "not enough memory to analyse the compiled file")
        }
        do {
            try scan(buffer.contents)
        } catch {
            throw LuaError(
                code: .runtime, chunkName: source.name, line: nil,
                message: "cannot analyse the compiled file: this Lua's bytecode format is not Lua 5.4's (\(error))")
        }
    }
}
