import JunctionCore
/// How large a ``RuleValue`` may be when it crosses between Swift and Lua, in
/// either direction.
///
/// A value beyond a limit is refused with a ``LuaError/Code/conversion`` error
/// that names the limit and the path where it was exceeded. The limits keep a rule
/// from handing the host a result that is huge, deeply nested or — through a
/// table shared many times over — exponentially large once copied.
public struct RuleValueLimits: Sendable, Hashable {
    /// The deepest ``maximumDepth`` may be set: 200 levels, Lua's own limit on
    /// nested C calls, so conversion never exhausts a thread's stack.
    public static let depthCeiling = 200

    /// The limits a bridge uses when given none: 32 levels, 10,000 values, 1 MiB of strings.
    public static let `default` = RuleValueLimits()

    /// How many tables may nest; a top-level array or table is level 1, and `0`
    /// allows no tables at all.
    public let maximumDepth: Int

    /// How many values a value may contain in all, itself and every table included
    /// (keys are not counted).
    public let maximumValueCount: Int

    /// How many bytes its strings may hold in all: every `.string` and `.bytes`
    /// value and every table key.
    public let maximumStringBytes: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumDepth: How many tables may nest, from 0 to ``depthCeiling``.
    ///   - maximumValueCount: How many values in all; at least 1.
    ///   - maximumStringBytes: How many string and key bytes in all; at least 0.
    public init(maximumDepth: Int = 32, maximumValueCount: Int = 10_000, maximumStringBytes: Int = 1 << 20) {
        precondition(
            (0...Self.depthCeiling).contains(maximumDepth), "maximumDepth must be in 0...\(Self.depthCeiling)")
        precondition(maximumValueCount >= 1, "maximumValueCount must be at least 1")
        precondition(maximumStringBytes >= 0, "maximumStringBytes must not be negative")
        self.maximumDepth = maximumDepth
        self.maximumValueCount = maximumValueCount
        self.maximumStringBytes = maximumStringBytes
    }
}
