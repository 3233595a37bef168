/// The budgets every rule runs under. A rule that exceeds one gets a clean, specific
/// error for that evaluation; the state stays usable and the next evaluation is correct.
public struct SandboxLimits: Sendable, Hashable {
    /// The most bytes a state's Lua heap may hold: compiled rules, their data and each
    /// evaluation's garbage. 8 MiB by default.
    public var memoryBytes: Int
    /// The most work one evaluation (or the loading of one file of a bundle) may do, in
    /// instructions: Lua VM instructions, and the work done outside the VM counts too — one
    /// instruction per byte library and helper functions read or produce and per element
    /// they move, per step of the pattern functions (a character tested, a backtrack, a
    /// byte compared), and per byte the heap grows by.
    /// 1,000,000 by default — a small rule takes well under 1,000. `Int.max` switches the
    /// budget off (no count hook) — for measuring its cost only, never for rules you did
    /// not write: without it a loop runs forever.
    public var instructions: Int
    /// How often, in instructions, the budget is checked; the budget is enforced to
    /// within this many instructions and usage is reported in these units. 1,000 by default.
    public var instructionInterval: Int
    /// The most work one decision may do across every rule it runs — interceptors, group
    /// policies, fallbacks, redirect conditions, on every hop and after every `next()` —
    /// in the units of ``instructions``: VM instructions, plus the work library and
    /// helper functions charge (a byte read or produced, an element moved, a pattern
    /// step), plus one ``instructionInterval`` per rule call. A rule that crosses it
    /// ends the decision: it is rejected whatever the rule's `on_error` says, naming the
    /// rule. A decision is a ``RuleEngine/withSession(context:_:)``, which a `Decider`
    /// opens for each request. 2,000,000 by default.
    public var decisionInstructions: Int
    /// The most CPU time one decision (or one evaluation outside a decision, or the loading
    /// of one file) may take: a backstop for work the instruction count cannot see, such as
    /// one instruction comparing two long strings or copying a long list of arguments. It is
    /// the thread's CPU time, so a device too busy to run the rule — other apps, 20 threads
    /// on 2 cores — does not make it fail: the time a thread waits is not the rule's. The
    /// clock starts at the first count interval and is read once an interval; once an
    /// interval is slow, the count is checked ten instructions at a time. Unlike the
    /// instruction budgets it depends on the device's speed, so ordinary rules — which
    /// take microseconds — never come near it; crossing it ends the decision, rejected
    /// whatever the rule's `on_error` says. 50 ms by default.
    public var decisionTime: Duration
    /// The most bytes of `print` and `log.*` output one decision (or one
    /// ``RuleEngine/withArguments(_:_:)`` call) may hand the logger; the rest is dropped
    /// and one line says how much. 16,384 by default.
    public var logBytes: Int
    /// The most lines of `print` and `log.*` output one decision may hand the logger;
    /// the rest is dropped and one line says how much. 100 by default.
    public var logLines: Int

    /// Creates limits; every argument has the documented default.
    /// - Parameters:
    ///   - memoryBytes: Heap cap per state.
    ///   - instructions: Instruction budget per evaluation.
    ///   - instructionInterval: Granularity of the instruction budget.
    ///   - decisionInstructions: Work budget per decision, across its rules.
    ///   - logBytes: Bytes of rule output per decision.
    ///   - logLines: Lines of rule output per decision.
    ///   - decisionTime: Time per decision, a backstop.
    public init(
        memoryBytes: Int = 8 << 20, instructions: Int = 1_000_000, instructionInterval: Int = 1_000,
        decisionInstructions: Int = 2_000_000,
        logBytes: Int = 16_384, logLines: Int = 100, decisionTime: Duration = .milliseconds(50)
    ) {
        precondition(memoryBytes > 0 && instructions > 0 && instructionInterval > 0, "limits must be positive")
        precondition(decisionInstructions > 0 && logBytes >= 0 && logLines >= 0, "limits must be positive")
        precondition(decisionTime > .zero, "limits must be positive")
        self.memoryBytes = memoryBytes
        self.instructions = instructions
        self.instructionInterval = min(instructionInterval, instructions, Int(Int32.max))
        self.decisionInstructions = decisionInstructions
        self.logBytes = logBytes
        self.logLines = logLines
        self.decisionTime = decisionTime
    }
}
