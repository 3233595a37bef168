/// Every step of one decision, in order, and the bundle that decided.
public struct DecisionTrace: Sendable, Hashable {
    /// The bundle's name and version (`example@42`), or `nil` without a bundle.
    public var bundle: String?
    /// The steps, in the order they ran.
    public var steps: [TraceStep]

    /// A trace.
    /// - Parameters:
    ///   - bundle: The bundle's name and version.
    ///   - steps: The steps.
    public init(bundle: String? = nil, steps: [TraceStep] = []) {
        self.bundle = bundle
        self.steps = steps
    }

    /// Total nanoseconds of the steps.
    public var nanoseconds: Int { steps.reduce(0) { $0 + $1.nanoseconds } }
    /// Total Lua instructions of the steps.
    public var instructions: Int { steps.reduce(0) { $0 + $1.instructions } }
}
