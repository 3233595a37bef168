import JunctionCore
public import Logging

/// Engines compiled from the same bundle, shared safely across tasks.
///
/// A Lua state is single-threaded, so each evaluation borrows an engine of its own:
/// an idle one when there is one, otherwise a newly compiled one — an evaluation never
/// waits for another. Up to `maximumIdle` engines are kept for reuse.
///
/// ```swift
/// let pool = try RuleEnginePool(sources: sources)
/// let result = try pool.withEngine { engine throws(LuaError) in
///     try engine.evaluate("needs_login", arguments: [request, context])
/// }
/// ```
public final class RuleEnginePool: Sendable {
    /// The bundle's sources.
    public let sources: [RuleSource]
    /// The budgets of every engine.
    public let limits: SandboxLimits
    /// The value limits of every engine.
    public let valueLimits: RuleValueLimits
    /// The most idle engines kept.
    public let maximumIdle: Int
    /// What the bundle declared (the same in every engine).
    public let declarations: RuleDeclarations
    /// Whether every engine records coverage (see ``coverage``).
    public let recordsCoverage: Bool
    private let logger: Logger
    /// The engines not lent out, and how many the pool compiled.
    private let idle: Locked<Idle>
    /// The coverage of engines dropped because `maximumIdle` were idle already.
    private let droppedEnginesCoverage = Locked(RuleCoverage())

    /// Compiles the bundle once (so a broken bundle fails here) and keeps that engine.
    /// - Parameters:
    ///   - sources: The bundle's Lua files.
    ///   - limits: Budgets of every engine.
    ///   - valueLimits: Value limits of every engine.
    ///   - maximumIdle: The most idle engines to keep; 8 by default.
    ///   - logger: Receives `print` output.
    ///   - coverage: Whether every engine records which lines of the bundle run (see
    ///     ``coverage``). Off by default: recording makes evaluations slower.
    /// - Throws: `LuaError` when the bundle does not compile.
    public init(
        sources: [RuleSource], limits: SandboxLimits = SandboxLimits(),
        valueLimits: RuleValueLimits = RuleValueLimits(),
        maximumIdle: Int = 8, logger: Logger = Logger(label: "junction.lua"), coverage: Bool = false
    ) throws(LuaError) {
        precondition(maximumIdle > 0, "maximumIdle must be positive")
        self.sources = sources
        self.limits = limits
        self.valueLimits = valueLimits
        self.maximumIdle = maximumIdle
        self.logger = logger
        recordsCoverage = coverage
        let first = try RuleEngine(
            sources: sources, limits: limits, valueLimits: valueLimits, logger: logger, coverage: coverage)
        declarations = first.declarations
        idle = Locked(Idle(last: first, engines: [], created: 1))
    }

    /// How many engines the pool has compiled so far.
    public var enginesCreated: Int { idle.withLock { $0.created } }

    /// The coverage of every engine the pool created, merged; empty (no files) when the
    /// pool does not record coverage. Engines lent out at this moment are skipped: what
    /// they record counts once they are given back.
    public var coverage: RuleCoverage {
        idle.withLock { idle in
            var merged = droppedEnginesCoverage.withLock { $0 }
            for engine in idle.engines + (idle.last.map { [$0] } ?? []) { merged.merge(engine.coverage) }
            return merged
        }
    }

    /// Lends `body` an engine no other task is using, and takes it back afterwards.
    /// - Parameter body: Uses the engine; must not keep it.
    /// - Returns: What `body` returns.
    /// - Throws: `LuaError` when a new engine does not compile, or what `body` throws.
    public func withEngine<Result>(_ body: (RuleEngine) throws(LuaError) -> Result) throws(LuaError) -> Result {
        let engine = try borrow()
        defer { giveBack(engine) }
        return try body(engine)
    }

    /// An idle engine, or a new one when none is idle.
    @inline(__always)
    private func borrow() throws(LuaError) -> RuleEngine {
        let lent: RuleEngine? = idle.withLock { idle in
            if let engine = idle.last.take() ?? idle.engines.popLast() { return engine }
            idle.created += 1
            return nil
        }
        if let lent { return lent }
        return try RuleEngine(
            sources: sources, limits: limits, valueLimits: valueLimits, logger: logger, coverage: recordsCoverage)
    }

    /// Takes an engine back: onto the idle list, unless ``maximumIdle`` are idle already
    /// (then it is dropped, its coverage kept).
    @inline(__always)
    private func giveBack(_ engine: RuleEngine) {
        let kept = idle.withLock { idle in
            if idle.last == nil {
                idle.last = engine
                return true
            }
            guard idle.engines.count + 1 < maximumIdle else { return false }
            idle.engines.append(engine)
            return true
        }
        if !kept, recordsCoverage {
            let coverage = engine.coverage
            droppedEnginesCoverage.withLock { $0.merge(coverage) }
        }
    }
}

/// The pool's engines not lent out, and how many it compiled: one lock for both.
private struct Idle {
    /// The engine given back last, lent first: a decider on one thread takes and gives
    /// back this one, with no array to grow or shrink.
    var last: RuleEngine?
    /// The other idle engines.
    var engines: [RuleEngine]
    var created: Int
}
