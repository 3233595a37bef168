extension RuleEngine {
    /// Analyses the bundle's code for `junction check` (see ``RuleAnalysis``): compiles
    /// `sources` again, without running them, reads every function's bytecode, and
    /// judges the globals it reads against what the sandbox and the loaded bundle define.
    /// Each declared function is found among the compiled functions by its file and
    /// lines (``RuleAnalysis/redirectTargets``). Takes nothing from loading or evaluating
    /// but what sealing already found.
    /// - Parameter sources: The files the engine was compiled from, in their order.
    /// - Returns: What the code gets wrong, and the names a misspelt one may have meant.
    /// - Throws: `LuaError` when a file does not compile or its chunk cannot be read.
    package func analyze(_ sources: [RuleSource]) throws(LuaError) -> RuleAnalysis {
        let declared = state.declaredFunctionSpans(files: Set(sources.map(\.name)))
        var analysis = try ChunkScanner.analyze(sources, names: state.globalNames(), declared: declared)
        let order = Dictionary(sources.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        analysis.globalAssignments = globalAssignments.sorted {
            (order[$0.file] ?? .max, $0.line) < (order[$1.file] ?? .max, $1.line)
        }
        // An assigned global that nothing defines has its own finding at the assignment.
        let assigned = Set(globalAssignments.map(\.name))
        analysis.undefinedGlobals.removeAll { assigned.contains($0.name) }
        return analysis
    }
}
