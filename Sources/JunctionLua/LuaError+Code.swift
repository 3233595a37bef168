import JunctionCore
extension LuaError {
    /// The kind of a ``LuaError``: an open set of values, so new kinds can be added
    /// without breaking code that switches over the known ones.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Sendable, Hashable {
            case syntax
            case runtime
            case memory
            case binaryChunkRefused
            case conversion
            case instructionBudget
            case decisionBudget
            case timeLimit
            case sharedState
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The chunk is not valid Lua source.
        public static let syntax = Code(.syntax)

        /// The chunk raised an error while running.
        public static let runtime = Code(.runtime)

        /// The state reached its memory limit.
        public static let memory = Code(.memory)

        /// The chunk is precompiled bytecode, which the sandbox never loads.
        public static let binaryChunkRefused = Code(.binaryChunkRefused)

        /// The chunk ran, but a value it returned has no ``RuleValue``.
        public static let conversion = Code(.conversion)

        /// The evaluation ran more VM instructions than its budget allows.
        public static let instructionBudget = Code(.instructionBudget)

        /// The decision the evaluation belongs to has spent its budget
        /// (``SandboxLimits/decisionInstructions``), shared by every rule it runs: the
        /// decision is over, whatever the rule's `on_error` says.
        public static let decisionBudget = Code(.decisionBudget)

        /// The decision (or the evaluation, or the loading of a file) ran longer than
        /// ``SandboxLimits/decisionTime``, the backstop for work the instruction count does
        /// not see: the decision is over, whatever the rule's `on_error` says.
        public static let timeLimit = Code(.timeLimit)

        /// Whether an error of this kind ends the decision it happened in, whatever the
        /// rule's `on_error` says: the decision's budget or its time is spent.
        package var endsDecision: Bool { kind == .decisionBudget || kind == .timeLimit }

        /// The bundle keeps state its evaluations could change — a table with a metatable
        /// or a function assigning to a variable outside it — so it cannot be sealed.
        public static let sharedState = Code(.sharedState)

        /// The kind's name, such as `syntax`.
        public var description: String {
            switch kind {
            case .syntax: "syntax"
            case .runtime: "runtime"
            case .memory: "memory"
            case .binaryChunkRefused: "binaryChunkRefused"
            case .conversion: "conversion"
            case .instructionBudget: "instructionBudget"
            case .decisionBudget: "decisionBudget"
            case .timeLimit: "timeLimit"
            case .sharedState: "sharedState"
            }
        }
    }
}
