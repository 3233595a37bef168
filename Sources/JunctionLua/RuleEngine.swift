public import JunctionCore
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
    /// The redirects, interceptors, group policies and fallbacks the bundle declared.
    public let declarations: RuleDeclarations
    /// The globals that functions able to run after loading assign: that fails whenever
    /// it runs, since sealing made the globals read-only. Found while sealing inspects
    /// those functions anyway; `junction check` reports them (``analyze(_:)``).
    package let globalAssignments: [RuleAnalysis.Use]

    let state: LuaState
    private let functionsReference: Int32
    private let callablesReference: Int32
    private let functionIndex: [String: Int]
    private var session = 0
    /// How many units of work (``withArguments(_:_:)``, ``withSession(context:_:)``) are
    /// running: only the outermost starts on a renewed thread.
    ///
    /// Unchecked, as the dynamic check cost a decision four runtime calls: sound because an
    /// engine is used by one thread at a time (it is not `Sendable`; a pool lends it to one
    /// borrower), and each access is a plain read or an increment that calls out to nothing.
    @exclusivity(unchecked) var openUnits = 0

    /// Compiles a bundle.
    /// - Parameters:
    ///   - sources: The bundle's Lua files, run in order.
    ///   - limits: Memory and instruction budgets; also apply while loading.
    ///   - valueLimits: Size limits for values crossing the boundary.
    ///   - logger: Receives `print` output at `info` level (label `junction.lua` by default).
    ///   - coverage: Whether loading and every evaluation record which lines of the
    ///     bundle's functions run, read with ``coverage``. Off by default: recording
    ///     makes evaluations slower.
    /// - Throws: `LuaError` naming the file and line of the first problem: a syntax
    ///   error, a runtime error while loading, a budget exceeded, or state the bundle
    ///   keeps in a way sealing cannot make read-only.
    public init(
        sources: [RuleSource], limits: SandboxLimits = SandboxLimits(),
        valueLimits: RuleValueLimits = RuleValueLimits(), logger: Logger = Logger(label: "junction.lua"),
        coverage: Bool = false
    ) throws(LuaError) {
        self.limits = limits
        self.valueLimits = valueLimits
        state = try LuaState(
            limits: limits,
            printHandler: { line in
                (RuleOutput.diverted ?? logger).info("\(line)", metadata: ["source": "lua print"])
            },
            logHandler: { level, line in
                (RuleOutput.diverted ?? logger).log(level: level, "\(line)", metadata: ["source": "lua log"])
            })
        if coverage { state.startRecordingCoverage() }
        state.frame.valueLimits = valueLimits
        let base = state.stackHeight
        for source in sources {
            try state.run(source: source.text, chunkName: source.name, results: 0)
            state.reset(to: base)
        }
        state.reportDroppedOutput()
        let sealed = try state.seal()
        functionNames = sealed.names
        functionsReference = sealed.functions
        callablesReference = sealed.callables
        state.frame.declaredFunctions = sealed.callables
        declarations = sealed.declarations
        globalAssignments = sealed.globalAssignments
        let names = sealed.names
        functionIndex = Dictionary(names.enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
        state.settleMainThread()
        try state.renewEvaluationThread()
        state.holdCollector()
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
        if openUnits == 0 { try state.renewEvaluationThreadIfChanged() }
        let base = state.stackHeight
        let renewsOutput = state.beginOutput()
        openUnits += 1
        defer {
            openUnits -= 1
            state.reset(to: base)
            session += 1
            if renewsOutput { state.reportDroppedOutput() }
            if openUnits == 0 { state.collectBetweenUnits() }
        }
        for argument in arguments {
            try RuleValueWriter.push(argument, readOnly: true, into: state.handle, limits: valueLimits)
        }
        session += 1
        return try body(RuleCalls(engine: self, session: session, first: base + 1, count: Int32(arguments.count)))
    }

    /// Calls a function the bundle declared (an interceptor's `run`, a redirect's `when`,
    /// a group policy or a fallback), by the index ``declarations`` gives it.
    /// - Parameters:
    ///   - index: The function's index from ``declarations``.
    ///   - arguments: Its arguments; tables arrive read-only.
    /// - Returns: Its first result and the instructions it ran.
    /// - Throws: `LuaError`, as ``evaluate(_:arguments:)``.
    public func evaluate(declared index: Int, arguments: [RuleValue] = []) throws(LuaError) -> RuleResult {
        try withArguments(arguments) { calls throws(LuaError) in try calls.evaluate(declared: index) }
    }

    func call(_ target: RuleCalls.Target, session: Int, first: Int32, count: Int32) throws(LuaError) -> RuleResult {
        precondition(session == self.session, "RuleCalls used outside its withArguments body")
        return try call(target, first: first, count: count)
    }

    /// Calls declared function `index` with the `req` and `ctx` of the call frame whose
    /// message handler is at slot `handler` (see ``RequestFrame``).
    func callDeclared(_ index: Int, handler: Int32) throws(LuaError) -> RuleResult {
        precondition(index >= 1, "declared function indices start at 1")
        let (value, instructions) = try state.call(
            function: index, inArrayAt: handler + 1, handler: handler, first: handler - 2, count: 2,
            chunkName: "declared function", limits: valueLimits)
        return RuleResult(value: value, instructions: instructions)
    }

    /// Calls `target` with copies of the `count` stack values from `first` as arguments.
    func call(_ target: RuleCalls.Target, first: Int32, count: Int32) throws(LuaError) -> RuleResult {
        let array: Int32
        let index: Int
        let name: String
        switch target {
        case .global(let function):
            guard let found = functionIndex[function] else {
                throw LuaError(
                    code: .runtime, chunkName: function, line: nil,
                    message: "the bundle defines no function \"\(function)\"")
            }
            (array, index, name) = (functionsReference, found, function)
        case .declared(let declared):
            precondition(declared >= 1, "declared function indices start at 1")
            // The name is a literal: no allocation per call.
            (array, index, name) = (callablesReference, declared, "declared function")
        }
        let handler = try state.pushCallFrame(functions: array)
        defer { state.reset(to: handler - 1) }
        let (value, instructions) = try state.call(
            function: index, inArrayAt: handler + 1, handler: handler, first: first, count: count, chunkName: name,
            limits: valueLimits)
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
        try engine.call(.global(function), session: session, first: first, count: count)
    }

    /// Calls a declared function with the shared arguments.
    /// - Parameter index: The function's index from ``RuleEngine/declarations``.
    /// - Returns: Its first result and the instructions it ran.
    /// - Throws: `LuaError`, as ``RuleEngine/evaluate(_:arguments:)``.
    public func evaluate(declared index: Int) throws(LuaError) -> RuleResult {
        try engine.call(.declared(index), session: session, first: first, count: count)
    }

    enum Target {
        case global(String)
        case declared(Int)
    }
}

@available(*, unavailable, message: "A Lua state is single-threaded; use a RuleEnginePool across tasks.")
extension RuleEngine: Sendable {}
