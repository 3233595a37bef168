extension RuleEngine {
    /// Whether the engine records coverage (it was created with `coverage: true`).
    public var recordsCoverage: Bool { state.coverageLog != nil }

    /// The lines of the bundle's functions that ran while it loaded and in every
    /// evaluation since (or since ``resetCoverage()``), for each of its files; see
    /// ``RuleCoverage`` for what counts. Empty (no files) when the engine does not
    /// record coverage.
    ///
    /// Only the bundle's files are recorded: never the sandbox's own Lua code, nor text
    /// a rule compiles with `load` under a name no bundle file has.
    public var coverage: RuleCoverage { state.coverage }

    /// Forgets the lines recorded so far, those run while loading included; the
    /// executable lines stay known.
    public func resetCoverage() { state.resetCoverage() }
}
