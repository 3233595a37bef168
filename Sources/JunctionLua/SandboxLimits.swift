/// The budgets every rule runs under. A rule that exceeds one gets a clean, specific
/// error for that evaluation; the state stays usable and the next evaluation is correct.
public struct SandboxLimits: Sendable, Hashable {
    /// The most bytes a state's Lua heap may hold: compiled rules, their data and each
    /// evaluation's garbage. 8 MiB by default.
    public var memoryBytes: Int
    /// The most Lua VM instructions one evaluation (or the loading of a bundle) may run.
    /// The pattern functions (`string.find/match/gmatch/gsub`), whose matching runs
    /// outside the VM, count each step of it (a character tested, a backtrack, a byte
    /// compared) and each byte they copy as an instruction.
    /// 1,000,000 by default — a small rule takes well under 1,000. `Int.max` switches the
    /// budget off (no count hook) — for measuring its cost only, never for rules you did
    /// not write: without it a loop runs forever.
    public var instructions: Int
    /// How often, in instructions, the budget is checked; the budget is enforced to
    /// within this many instructions and usage is reported in these units. 1,000 by default.
    public var instructionInterval: Int
    /// The most elements one `table.move` may copy (its C loop cannot be interrupted).
    /// 1,048,576 by default.
    public var moveElements: Int

    /// Creates limits; every argument has the documented default.
    /// - Parameters:
    ///   - memoryBytes: Heap cap per state.
    ///   - instructions: Instruction budget per evaluation.
    ///   - instructionInterval: Granularity of the instruction budget.
    ///   - moveElements: Element cap for `table.move`.
    public init(
        memoryBytes: Int = 8 << 20, instructions: Int = 1_000_000, instructionInterval: Int = 1_000,
        moveElements: Int = 1 << 20
    ) {
        precondition(memoryBytes > 0 && instructions > 0 && instructionInterval > 0, "limits must be positive")
        precondition(moveElements > 0, "limits must be positive")
        self.memoryBytes = memoryBytes
        self.instructions = instructions
        self.instructionInterval = min(instructionInterval, instructions, Int(Int32.max))
        self.moveElements = moveElements
    }
}
