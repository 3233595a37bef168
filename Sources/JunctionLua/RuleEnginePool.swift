import JunctionCore
public import Logging
import Synchronization

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
    private let idle: Locked<[EngineBox]>
    /// One idle engine kept outside the lock (counted in `maximumIdle`): borrowing it and
    /// giving it back are one atomic exchange each instead of a lock round trip each —
    /// what a decider on one thread does for every decision.
    private let spare = Atomic<Unmanaged<EngineBox>?>(nil)
    private let created = Atomic<Int>(0)
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
        idle = Locked([EngineBox(first)])
        created.store(1, ordering: .relaxed)
    }

    deinit {
        spare.exchange(nil, ordering: .acquiring)?.release()
    }

    /// How many engines the pool has compiled so far.
    public var enginesCreated: Int { created.load(ordering: .relaxed) }

    /// The coverage of every engine the pool created, merged; empty (no files) when the
    /// pool does not record coverage. Engines lent out at this moment are skipped: what
    /// they record counts once they are given back.
    public var coverage: RuleCoverage {
        // Held while reading, so no borrower uses it meanwhile and no engine is read twice.
        let held = spare.exchange(nil, ordering: .acquiring)
        var merged = droppedEnginesCoverage.withLock { $0 }
        idle.withLock { engines in
            for box in engines { merged.merge(box.engine.coverage) }
        }
        if let held {
            merged.merge(held.takeUnretainedValue().engine.coverage)
            giveBack(held)
        }
        return merged
    }

    /// Lends `body` an engine no other task is using, and takes it back afterwards.
    /// - Parameter body: Uses the engine; must not keep it.
    /// - Returns: What `body` returns.
    /// - Throws: `LuaError` when a new engine does not compile, or what `body` throws.
    public func withEngine<Result>(_ body: (RuleEngine) throws(LuaError) -> Result) throws(LuaError) -> Result {
        // The engine stays unmanaged from the spare slot to the body and back, so lending
        // it takes no retain or release: `box` holds the +1 reference `borrow()` handed
        // out until `giveBack(_:)` takes it back, and `body` must not keep the engine.
        let box = try borrow()
        defer { giveBack(box) }
        return try body(box.takeUnretainedValue().engine)
    }

    /// An engine box holding the +1 reference the caller gives back with ``giveBack(_:)``.
    private func borrow() throws(LuaError) -> Unmanaged<EngineBox> {
        if let box = spare.exchange(nil, ordering: .acquiring) { return box }
        if let box = idle.withLock({ $0.popLast() }) { return Unmanaged.passRetained(box) }
        created.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(
            EngineBox(
                try RuleEngine(
                    sources: sources, limits: limits, valueLimits: valueLimits, logger: logger,
                    coverage: recordsCoverage)))
    }

    /// Takes back the reference ``borrow()`` handed out: into the spare slot when it is
    /// empty (no reference counting at all), else onto the idle list.
    private func giveBack(_ lent: Unmanaged<EngineBox>) {
        if spare.compareExchange(expected: nil, desired: lent, ordering: .releasing).exchanged { return }
        let box = lent.takeRetainedValue()
        let kept = idle.withLock { engines in
            guard engines.count < maximumIdle - 1 else { return false }
            engines.append(box)
            return true
        }
        if !kept, recordsCoverage {
            let coverage = box.engine.coverage
            droppedEnginesCoverage.withLock { $0.merge(coverage) }
        }
    }
}

/// An engine in transit between the pool and one borrower. Only the pool touches it,
/// and only one task holds it at a time (it is in the idle list or lent out, never both).
private final class EngineBox: @unchecked Sendable {
    let engine: RuleEngine

    init(_ engine: RuleEngine) {
        self.engine = engine
    }
}
