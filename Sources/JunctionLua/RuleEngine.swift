public import Logging

/// A bundle's rules compiled into one sandboxed Lua 5.4 state.
///
/// Loading runs each source once, in the bundle's own environment, where it defines
/// global functions (its rules and helpers). Then the environment is sealed: it and
/// every table reachable from it become read-only, so no evaluation can leave state
/// behind for the next — a rule that assigns a global or changes a shared table gets an
/// error. Every evaluation runs under ``SandboxLimits``.
///
/// An engine is single-threaded: use it from one task at a time, or take engines from
/// a ``RuleEnginePool``.
///
/// ```swift
/// let engine = try RuleEngine(sources: [RuleSource(name: "login.lua", text: """
///     function needs_login(req, ctx)
///       return ctx.user == nil and req.path:match("^/orders") ~= nil
///     end
///     """)])
/// let result = try engine.evaluate("needs_login", arguments: [["path": "/orders/7"], [:]])
/// result.value   // .bool(true)
/// ```
public final class RuleEngine {
    /// The budgets every evaluation runs under.
    public let limits: SandboxLimits
    /// The limits on values crossing into and out of Lua.
    public let valueLimits: RuleValueLimits
    /// The global functions the bundle defined, in no particular order.
    public let functionNames: [String]

    let state: LuaState
    private let functionsReference: Int32
    private let functionIndex: [String: Int]
    private var session = 0

    /// Compiles a bundle.
    /// - Parameters:
    ///   - sources: The bundle's Lua files, run in order.
    ///   - limits: Memory and instruction budgets; also apply while loading.
    ///   - valueLimits: Size limits for values crossing the boundary.
    ///   - logger: Receives `print` output at `info` level (label `junction.lua` by default).
    /// - Throws: `LuaError` naming the file and line of the first problem: a syntax
    ///   error, a runtime error while loading, a budget exceeded, or state the bundle
    ///   keeps in a way sealing cannot make read-only.
    public init(
        sources: [RuleSource], limits: SandboxLimits = SandboxLimits(),
        valueLimits: RuleValueLimits = RuleValueLimits(), logger: Logger = Logger(label: "junction.lua")
    ) throws(LuaError) {
        self.limits = limits
        self.valueLimits = valueLimits
        state = try LuaState(
            limits: limits,
            printHandler: { line in logger.info("\(line)", metadata: ["source": "lua print"]) },
            logHandler: { level, line in logger.log(level: level, "\(line)", metadata: ["source": "lua log"]) })
        let base = state.stackHeight
        for source in sources {
            try state.run(source: source.text, chunkName: source.name, results: 0)
            state.reset(to: base)
        }
        let (names, functions) = try state.seal()
        functionNames = names
        functionsReference = functions
        functionIndex = Dictionary(names.enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
    }

    /// The bytes the engine's Lua heap holds now, garbage not yet collected included.
    public var memoryInUse: Int { state.memoryInUse }

    /// Runs a full garbage collection, so ``memoryInUse`` shows what the bundle keeps.
    public func collectGarbage() { state.collectGarbage() }

    /// Calls one of the bundle's functions.
    /// - Parameters:
    ///   - function: A global function the bundle defined.
    ///   - arguments: Its arguments; tables arrive read-only.
    /// - Returns: Its first result and the instructions it ran.
    /// - Throws: `LuaError`: the rule's own error with its file and line, a budget
    ///   exceeded, a result that does not convert, or an unknown function.
    public func evaluate(_ function: String, arguments: [RuleValue] = []) throws(LuaError) -> RuleResult {
        try withArguments(arguments) { calls throws(LuaError) in try calls.evaluate(function) }
    }

    /// Puts arguments into Lua once and lets `body` call several functions with them —
    /// the request a router evaluates rule after rule is built once.
    /// - Parameters:
    ///   - arguments: The shared arguments; tables arrive read-only.
    ///   - body: Calls functions through ``RuleCalls``, valid only inside `body`.
    /// - Returns: What `body` returns.
    /// - Throws: `LuaError` when an argument does not fit the value limits or memory, or
    ///   what `body` throws.
    public func withArguments<Result>(
        _ arguments: [RuleValue], _ body: (RuleCalls) throws(LuaError) -> Result
    ) throws(LuaError) -> Result {
        let base = state.stackHeight
        defer {
            state.reset(to: base)
            session += 1
        }
        for argument in arguments {
            try RuleValueWriter.push(argument, readOnly: true, into: state.handle, limits: valueLimits)
        }
        session += 1
        return try body(RuleCalls(engine: self, session: session, first: base + 1, count: Int32(arguments.count)))
    }

    func call(_ function: String, session: Int, first: Int32, count: Int32) throws(LuaError) -> RuleResult {
        precondition(session == self.session, "RuleCalls used outside its withArguments body")
        guard let index = functionIndex[function] else {
            throw LuaError(
                code: .runtime, chunkName: function, line: nil,
                message: "the bundle defines no function \"\(function)\"")
        }
        let handler = try state.startCall(function: functionsReference, at: index, arguments: count)
        state.pushCopies(first: first, count: count)
        let (value, instructions) = try state.finishCall(
            handler: handler, arguments: count, chunkName: function, limits: valueLimits)
        return RuleResult(value: value, instructions: instructions)
    }
}

/// Calls functions of a ``RuleEngine`` with the arguments of one
/// ``RuleEngine/withArguments(_:_:)`` call.
public struct RuleCalls {
    fileprivate let engine: RuleEngine
    fileprivate let session: Int
    fileprivate let first: Int32
    fileprivate let count: Int32

    /// Calls `function` with the shared arguments.
    /// - Parameter function: A global function the bundle defined.
    /// - Returns: Its first result and the instructions it ran.
    /// - Throws: `LuaError`, as ``RuleEngine/evaluate(_:arguments:)``.
    public func evaluate(_ function: String) throws(LuaError) -> RuleResult {
        try engine.call(function, session: session, first: first, count: count)
    }
}

@available(*, unavailable, message: "A Lua state is single-threaded; use a RuleEnginePool across tasks.")
extension RuleEngine: Sendable {}
