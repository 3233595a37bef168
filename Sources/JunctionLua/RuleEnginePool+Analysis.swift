extension RuleEnginePool {
    /// What the bundle's code gets wrong that no single test shows, for `junction check`:
    /// see ``RuleAnalysis`` and ``RuleEngine/analyze(_:)``. Computed on each call, on an
    /// engine of the pool; nothing is gathered while loading but what sealing finds anyway.
    /// - Returns: The analysis of ``sources``.
    /// - Throws: `LuaError` when a file does not compile or its chunk cannot be read.
    package func analysis() throws(LuaError) -> RuleAnalysis {
        try withEngine { engine throws(LuaError) in try engine.analyze(sources) }
    }
}
