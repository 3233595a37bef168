import JunctionCore
import JunctionLua

/// The state of one ``Decider/decide(_:context:)``: the URLs visited, the parameters
/// carried, the trace so far.
///
/// Not copyable: a run is one decision's, and as a copyable value the optimiser built it
/// aside and copied it into place — a copy and a destroy of every field, per decision.
struct DecisionRun: ~Copyable {
    private let decider: Decider
    private let context: ContextSnapshot
    /// The request now: the current URL's parameters include redirect verdicts' params.
    /// It is the caller's own until a redirect verdict carries parameters, so the run
    /// holds one request, not a second copy of the caller's.
    private var request: RouteRequest
    /// The caller's parameters, kept when a redirect verdict changes `request`'s.
    private var callerParams: [String: RuleValue]?
    private var rewrites: [String: RuleValue] = [:]
    /// The URLs left behind by redirects, in order (empty for most requests, so nothing
    /// is allocated).
    private var passed: [String] = []
    /// The gates the request passed and resumed after (``AsyncStage/passedGates``): a gate
    /// to one of them again is a loop.
    private var passedGates: [String] = []
    private var steps: [TraceStep]
    private var uri: URI?
    /// The URL being decided now (the run stops at a URL that does not parse).
    private var currentURL: String { uri?.string ?? "" }
    /// Bytes of texts and verdict values the trace keeps, and what it left out once that
    /// reached ``DeciderOptions/maximumTraceBytes``.
    private var traceBytes = 0
    private var traceBytesLeftOut = 0
    /// Bytes the rules' verdicts carried so far (``DeciderOptions/maximumVerdictBytes``).
    private var verdictBytes = 0
    /// When the last step ended: each step's time is the lap since then, one clock
    /// read per step.
    private var lastTick = MonotonicClock.nanoseconds()

    init(decider: Decider, request: RouteRequest, context: ContextSnapshot, passedGates: [String] = []) {
        var steps: [TraceStep] = []
        steps.reserveCapacity(8)
        self.steps = steps
        self.decider = decider
        self.request = request
        self.context = context
        self.passedGates = passedGates
    }

    /// Where one URL's pass through the pipeline ends.
    private enum Ending {
        /// The request is decided.
        case decided(Decision.Outcome)
        /// The request goes on at another URL, with these parameters carried to it.
        case redirected(to: String, params: [String: RuleValue])
    }

    /// What one step concluded, as its kind reads what it returned.
    private enum Conclusion {
        /// Carry on to the next step: an interceptor returned `nil`, a `when` holds.
        case proceed
        /// Carry on, with these parameters of the route changed.
        case rewrite([String: RuleValue])
        /// Not taken: the route declines (`next()`), a fallback leaves the URL to the next,
        /// a `when` does not hold.
        case decline
        /// The pass ends here.
        case end(Ending)
    }

    // MARK: - The pipeline

    /// Decides the request: the caller's URL, then each URL a redirect leads to — declared,
    /// a rule's verdict or a fallback's — goes through the pipeline until one decides.
    mutating func run<Functions: DeclaredFunctions>(_ session: inout Functions) -> Decision {
        var url = request.url
        while true {
            let (ending, match) = pass(url, session: &session)
            switch ending {
            case .decided(let outcome):
                return finish(outcome, match: match)
            case .redirected(let target, let params):
                if let refusal = hop(to: target) { return finish(refusal, match: match) }
                carry(params)
                url = target
            }
        }
    }

    /// The decision when the pool could not lend an engine (a new one failed to compile).
    mutating func engineFailure(_ error: LuaError) -> Decision {
        record(.engineFailure(error))
        return finish(.reject(.engineFailure(error)))
    }

    /// One URL through the pipeline: parse → declared redirects → match → access → the
    /// route's chain, and when the route declines, the next route that matches → for a
    /// URL no route takes, its scheme's dispatcher, the fallbacks, or unmatched. Returns
    /// where the pass ended, and the route it ended at.
    private mutating func pass<Functions: DeclaredFunctions>(
        _ url: String, session: inout Functions
    ) -> (Ending, RouteMatch?) {
        let uri: URI
        do {
            uri = try URI(url)
        } catch {
            record(.unparsable(url, error: "\(error)", nanoseconds: lap()))
            self.uri = nil
            return (.decided(.reject(.unparsable(url, error: "\(error)"))), nil)
        }
        self.uri = uri

        // The route and the best declared redirect, from one reading of the URL.
        var found: RouteMatch?
        if let redirects = decider.redirects.table {
            let matches = decider.routes.match(uri, alsoIn: redirects)
            found = matches.here
            if let best = matches.other,
                let ending = declaredRedirect(uri, best: best, in: redirects, session: &session)
            {
                return (ending, nil)
            }
        } else {
            found = decider.routes.match(uri)
        }
        record(.match(found?.route, nanoseconds: lap()))
        var alternatives: [RouteMatch]?
        return routes(from: found, of: uri, among: &alternatives, session: &session)
    }

    /// The rest of a pass from route `first` on: its access check and chain, and when it
    /// declines, the next route that matches, until one ends the pass; for a URL no route
    /// takes, ``unmatched(_:session:)``.
    private mutating func routes<Functions: DeclaredFunctions>(
        from first: RouteMatch?, of uri: URI, among alternatives: inout [RouteMatch]?, session: inout Functions
    ) -> (Ending, RouteMatch?) {
        var current = first
        while let match = current {
            if let refusal = checkAccess(match) ?? checkDeclaredParameters(match) { return (.decided(refusal), match) }
            if let ending = runChain(for: match, session: &session) { return (ending, match) }
            current = nextMatch(after: match, of: uri, among: &alternatives)
        }
        return (unmatched(uri, session: &session), nil)
    }

    // MARK: - Stages

    /// The first declared redirect taken: of the best `from` pattern's redirects, in
    /// declaration order, the first whose `when` holds or that has none; the patterns
    /// after it only when none of its redirects is taken. `nil` when none is.
    private mutating func declaredRedirect<Functions: DeclaredFunctions>(
        _ uri: URI, best: RouteMatch, in table: RouteTable, session: inout Functions
    ) -> Ending? {
        var candidates = [best]
        var expanded = false
        var position = 0
        while position < candidates.count {
            let match = candidates[position]
            var ruleRequest: RuleRequest?  // what each `when` of this pattern reads, built for the first
            for rule in decider.redirects.rulesByRoute[match.routeIndex] {
                if let condition = rule.condition {
                    let conditionRequest: RuleRequest
                    if let ruleRequest {
                        conditionRequest = ruleRequest
                    } else {
                        conditionRequest = RuleRequest(
                            uri: uri, request: request, pathParameters: match.parameters,
                            plusAsSpace: decider.routes.options.plusAsSpace)
                        session.setRequest(conditionRequest)
                        ruleRequest = conditionRequest
                    }
                    switch evaluate(condition, conditionRequest, session: &session) {
                    case .proceed: break  // it holds
                    case .decline, .rewrite: continue  // it does not: the next redirect
                    case .end(let ending): return ending  // it failed, and that rejects
                    }
                }
                let target = decider.redirects.target(of: rule, for: match)
                record(.declaredRedirect(rule, to: target, nanoseconds: lap()), verdictBytes: target.utf8.count)
                return .redirected(to: target, params: [:])
            }
            position += 1
            if position == candidates.count, !expanded {
                expanded = true
                candidates = table.matches(uri)
                position = candidates.firstIndex { $0.routeIndex == best.routeIndex }.map { $0 + 1 } ?? candidates.count
            }
        }
        return nil
    }

    /// Refuses a route that is not exported to a request from outside the app.
    private mutating func checkAccess(_ match: RouteMatch) -> Decision.Outcome? {
        guard request.source != .internal else { return nil }
        let route = match.route
        let refusal = route.isExported ? nil : Rejection.notExported(route, source: request.source)
        record(.access(route, refusal: refusal, nanoseconds: lap()))
        return refusal.map(Decision.Outcome.reject)
    }

    /// Refuses a request that carries a parameter a `params_strict` route does not declare:
    /// a query item or a caller's (or redirect's) parameter named neither by the pattern nor
    /// by `params:`. Runs before the rules, so no rule sees an undeclared parameter; rules'
    /// own `rewrite{}` parameters are theirs to choose.
    private mutating func checkDeclaredParameters(_ match: RouteMatch) -> Decision.Outcome? {
        let route = match.route
        guard route.isParamsStrict else { return nil }
        var seen: Set<String> = []
        var listed: [String] = []
        var count = 0
        func consider(_ name: String) {
            guard route.parameter(named: name) == nil, match.parameters[name] == nil, seen.insert(name).inserted
            else { return }
            count += 1
            if listed.count < Rejection.undeclaredNamesListed { listed.append(name) }
        }
        for item in match.query { consider(item.name) }
        for name in request.params.keys.sorted() { consider(name) }
        guard count > 0 else { return nil }
        let refusal = Rejection.undeclaredParameters(route, names: listed, count: count)
        record(.access(route, refusal: refusal, nanoseconds: lap()))
        return .reject(refusal)
    }

    /// The route's chain — global interceptors, its groups' policies, its own
    /// interceptors — in order, until a step ends the pass; the route opens when every
    /// step carries on. `nil` when the route declines.
    private mutating func runChain<Functions: DeclaredFunctions>(
        for match: RouteMatch, session: inout Functions
    ) -> Ending? {
        let chain = decider.plan.chain(for: match)
        var ruleRequest = RuleRequest(match: match, request: request, rewrites: rewrites)
        session.setRequest(ruleRequest)
        for step in chain {
            let conclusion = evaluate(step, ruleRequest, session: &session)
            let rewrote = if case .rewrite = conclusion { true } else { false }
            switch follow(conclusion, at: match, ruleRequest: &ruleRequest) {
            case .goesOn: if rewrote { session.setRequest(ruleRequest) }  // the steps after read the new params
            case .declined: return nil
            case .ended(let ending): return ending
            }
        }
        return .decided(.open)
    }

    /// Where a route's chain stands after a step.
    private enum ChainProgress {
        /// On to the next step.
        case goesOn
        /// The route declines (`next()`).
        case declined
        /// The pass ends.
        case ended(Ending)
    }

    /// Applies one step's conclusion to the chain of `match`: a rewrite changes the
    /// parameters the next steps read (`ruleRequest`); a decline drops the route's own.
    @inline(__always)
    private mutating func follow(
        _ conclusion: Conclusion, at match: RouteMatch, ruleRequest: inout RuleRequest
    ) -> ChainProgress {
        switch conclusion {
        case .proceed:
            return .goesOn
        case .rewrite(let params):
            rewrites.merge(params) { _, new in new }
            ruleRequest = RuleRequest(match: match, request: request, rewrites: rewrites)
            return .goesOn
        case .decline:
            rewrites = [:]  // the route's own, gone with it
            return .declined
        case .end(let ending):
            return .ended(ending)
        }
    }

    /// The route after `declined` among those matching `uri` (listed once, at the first
    /// `next()`), if any.
    private mutating func nextMatch(
        after declined: RouteMatch, of uri: URI, among alternatives: inout [RouteMatch]?
    ) -> RouteMatch? {
        let all = alternatives ?? decider.routes.matches(uri)
        alternatives = all
        let position = all.firstIndex { $0.routeIndex == declined.routeIndex }.map { $0 + 1 } ?? all.endIndex
        let next = position < all.endIndex ? all[position] : nil
        record(.nextMatch(after: declined.route, next?.route, nanoseconds: lap()))
        return next
    }

    /// A URL no route takes: its scheme's dispatcher, else the first fallback that
    /// decides or redirects, else unmatched.
    private mutating func unmatched<Functions: DeclaredFunctions>(_ uri: URI, session: inout Functions) -> Ending {
        if let scheme = uri.scheme?.lowercased(), decider.routes.options.dispatchedSchemes.contains(scheme) {
            record(.handOver(scheme, nanoseconds: lap()))
            return .decided(.handOver(scheme: scheme))
        }
        let fallbacks = decider.fallbacks
        if !fallbacks.isEmpty {
            let ruleRequest = RuleRequest(uri: uri, request: request, plusAsSpace: decider.routes.options.plusAsSpace)
            session.setRequest(ruleRequest)
            for fallback in fallbacks {
                if case .end(let ending) = evaluate(fallback, ruleRequest, session: &session) { return ending }
            }
        }
        return .decided(.unmatched)
    }

    // MARK: - Steps

    /// Runs one step with `ruleRequest` as its `req`, records it, and concludes from what
    /// it returned as its kind reads it (``PolicyStep/Kind``). The caller has made
    /// `ruleRequest` what `session`'s rules read (`setRequest`), once for the steps that
    /// share it: a chain's, a pattern's `when`s, the fallbacks.
    private mutating func evaluate<Functions: DeclaredFunctions>(
        _ step: PolicyStep, _ ruleRequest: RuleRequest, session: inout Functions
    ) -> Conclusion {
        switch step.body {
        case .lua(let function):
            var instructions = 0
            do {
                let result = try session.evaluate(declared: function)
                instructions = result.instructions
                if step.kind == .condition {
                    let holds =
                        switch result.value {
                        case .nil, .bool(false): false
                        default: true
                        }
                    record(.condition(step, holds: holds, nanoseconds: lap(), instructions: instructions))
                    return holds ? .proceed : .decline
                }
                // Most rules return nothing: carry on, without a call into the verdict reader.
                let verdict: Verdict =
                    if case .nil = result.value { .continue } else { try Verdict(result.value, rule: step.name) }
                return conclude(step, verdict, from: ruleRequest, instructions: instructions)
            } catch {
                // A rule stopped by its own budget ran all of it.
                if error.code == .instructionBudget { instructions = decider.engines?.limits.instructions ?? 0 }
                guard !error.code.endsDecision else {
                    record(.budgetSpent(step, error: error, nanoseconds: lap(), instructions: instructions))
                    return .end(.decided(.reject(.budgetSpent(by: step.name, error))))
                }
                return fail(step, error.description, instructions: instructions)
            }
        case .swift(let body):
            do {
                return conclude(step, try body(ruleRequest, context), from: ruleRequest, instructions: 0)
            } catch {
                return fail(step, "\(error)", instructions: 0)
            }
        case .async:
            // Never in a synchronous chain: the async stage awaits its steps itself.
            return fail(step, "an async interceptor runs only in a decision that awaits it", instructions: 0)
        }
    }

    /// What `verdict`, returned by `step`, means; records the step.
    private mutating func conclude(
        _ step: PolicyStep, _ verdict: consuming Verdict, from ruleRequest: RuleRequest, instructions: Int
    ) -> Conclusion {
        // What a verdict carries is measured where its values are bound: most carry none.
        let conclusion: Conclusion
        var size = 0
        var gateLoop: Rejection?
        switch verdict {
        case .continue:
            conclusion = Self.returningNothing(step.kind)
        case .next:
            conclusion = .decline
        case .rewrite(let params):
            guard step.kind == .interceptor else {
                return fail(
                    step, "rewrite{} has no route's parameters to change here; return redirect(url, params) instead",
                    instructions: instructions)
            }
            size = RuleValue.payloadBytes(of: params)
            conclusion = .rewrite(params)
        case .redirect(let url, let params, let keepQuery):
            var target = url
            if keepQuery, let uri {
                target = RedirectRules.keepingQuery(of: uri, in: url)
                verdict = .redirect(url: target, params: params, keepQuery: true)  // the trace shows where it leads
            }
            size = target.utf8.count + RuleValue.payloadBytes(of: params)
            conclusion = .end(.redirected(to: target, params: params))
        case .reject(let reason, let code):
            size = reason.utf8.count
            conclusion = .end(.decided(.reject(Rejection(.rule, reason: reason, code: code, rule: step.name))))
        case .gate(let url, let resume):
            size = url.utf8.count
            gateLoop = Rejection.gateLoop(
                by: step.name, to: url, from: ruleRequest.url, gated: request.gatedRequests, passed: passedGates,
                maximumDepth: decider.options.maximumGateDepth)
            conclusion = .end(.decided(gateLoop.map(Decision.Outcome.reject) ?? .gate(url: url, resume: resume)))
        case .respond(let value):
            size = value.payloadBytes
            conclusion = .end(.decided(.respond(value)))
        }
        if size > 0 {
            verdictBytes += size
            if verdictBytes > decider.options.maximumVerdictBytes {
                let refusal = Rejection.verdictTooLarge(
                    by: step.name, size: size, total: verdictBytes, maximum: decider.options.maximumVerdictBytes)
                record(.verdictTooLarge(step, refusal: refusal, nanoseconds: lap(), instructions: instructions))
                return .end(.decided(.reject(refusal)))
            }
        }
        if let gateLoop {
            record(
                .gateRefused(step, verdict: verdict, refusal: gateLoop, nanoseconds: lap(), instructions: instructions),
                verdictBytes: size)
        } else {
            record(.rule(step, verdict: verdict, nanoseconds: lap(), instructions: instructions), verdictBytes: size)
        }
        return conclusion
    }

    /// `step` failed: recorded with `error`, and its `on_error` applies — the decision is
    /// rejected, or carries on as if the rule had returned `nil`.
    private mutating func fail(_ step: PolicyStep, _ error: String, instructions: Int) -> Conclusion {
        record(.failed(step, error: error, nanoseconds: lap(), instructions: instructions))
        guard step.onError == .continue else { return .end(.decided(.reject(.ruleFailed(step.name, error: error)))) }
        return Self.returningNothing(step.kind)
    }

    /// What a rule returning `nil` concludes: an interceptor carries on; a fallback, or a
    /// `when`, is not taken.
    private static func returningNothing(_ kind: PolicyStep.Kind) -> Conclusion {
        kind == .interceptor ? .proceed : .decline
    }

    // MARK: - The async stage

    /// Where a segment of an awaiting decision starts.
    private enum Resume {
        /// At a URL: the caller's, or where a redirect leads.
        case url(String)
        /// After a route an async interceptor declined (`next()`): at the next route that
        /// matches the same URL.
        case declined(RouteMatch)
    }

    /// Where a segment of an awaiting decision stops.
    private enum Stop {
        /// The request is decided.
        case decided(Decision)
        /// The route would open: its async interceptors are next.
        case opens(RouteMatch)
        /// Nothing takes the URL: the undefined-route handler is next.
        case unmatched
    }

    /// Decides the request with `stage`: the synchronous pipeline in segments, each with a
    /// Lua engine lent for it alone, and between them, with no engine held, the async
    /// interceptors of a route that would open and the undefined-route handler of a URL
    /// nothing takes. Their verdicts are read by ``conclude(_:_:from:instructions:)`` as
    /// a rule's; their redirects, and the handler's URL, are hops counted with the rules'.
    mutating func run(awaiting stage: AsyncStage) async -> Decision {
        passedGates = stage.passedGates
        var resume = Resume.url(request.url)
        var mayAskUndefined = stage.undefinedRoute != nil
        while true {
            switch segment(resume, stopAtUnmatched: mayAskUndefined) {
            case .decided(let decision):
                return decision
            case .opens(let match):
                switch await awaitInterceptors(stage.interceptors, for: match) {
                case nil:
                    resume = .declined(match)
                case .decided(let outcome):
                    return finish(outcome, match: match)
                case .redirected(let target, let params):
                    if let refusal = hop(to: target) { return finish(refusal, match: match) }
                    carry(params)
                    resume = .url(target)
                }
            case .unmatched:
                mayAskUndefined = false  // once per request
                guard let handler = stage.undefinedRoute, let target = await handler(snapshot(.unmatched)) else {
                    return finish(.unmatched)
                }
                record(.undefinedRoute(to: target, nanoseconds: lap()), verdictBytes: target.utf8.count)
                if let refusal = hop(to: target) { return finish(refusal) }
                resume = .url(target)
            }
        }
    }

    /// One segment: from `resume` through the pipeline — following redirects — until the
    /// request is decided, a route would open, or (`stopAtUnmatched`) nothing takes the URL.
    /// The engine is lent for the segment and back in the pool when it returns.
    private mutating func segment(_ resume: Resume, stopAtUnmatched: Bool) -> Stop {
        guard let engines = decider.engines else {
            var none = NoDeclaredFunctions()
            return advance(resume, stopAtUnmatched: stopAtUnmatched, session: &none)
        }
        do {
            return try engines.withEngine { engine throws(LuaError) in
                engine.withSession(context: context) { session in
                    self.advance(resume, stopAtUnmatched: stopAtUnmatched, session: &session)
                }
            }
        } catch {
            return .decided(engineFailure(error))
        }
    }

    /// ``run(_:)``'s loop, stopping where a route would open or nothing takes the URL.
    private mutating func advance<Functions: DeclaredFunctions>(
        _ resume: Resume, stopAtUnmatched: Bool, session: inout Functions
    ) -> Stop {
        var (ending, match) =
            switch resume {
            case .url(let url): pass(url, session: &session)
            case .declined(let declined): pass(after: declined, session: &session)
            }
        while true {
            switch ending {
            case .decided(.open):
                guard let match else { return .decided(finish(.open)) }
                return .opens(match)
            case .decided(.unmatched) where stopAtUnmatched:
                return .unmatched
            case .decided(let outcome):
                return .decided(finish(outcome, match: match))
            case .redirected(let target, let params):
                if let refusal = hop(to: target) { return .decided(finish(refusal, match: match)) }
                carry(params)
                (ending, match) = pass(target, session: &session)
            }
        }
    }

    /// The pass after an async interceptor declined `declined`: the next route that
    /// matches the same URL, then on as ``pass(_:session:)`` goes.
    private mutating func pass<Functions: DeclaredFunctions>(
        after declined: RouteMatch, session: inout Functions
    ) -> (Ending, RouteMatch?) {
        let uri = declined.uri
        var alternatives: [RouteMatch]?
        let next = nextMatch(after: declined, of: uri, among: &alternatives)
        return routes(from: next, of: uri, among: &alternatives, session: &session)
    }

    /// The async interceptors that see `match`, in order, each awaited off the caller's
    /// actor under its deadline, their verdicts read as ``runChain(for:session:)`` reads a
    /// rule's: `nil` when one declines the route, `.decided(.open)` when all carry on.
    private mutating func awaitInterceptors(
        _ interceptors: [RegisteredAsyncInterceptor], for match: RouteMatch
    ) async -> Ending? {
        var ruleRequest = RuleRequest(match: match, request: request, rewrites: rewrites)
        for registered in interceptors where registered.applies(to: match) {
            let step = registered.step
            let conclusion: Conclusion
            switch await registered.run(ruleRequest, context) {
            case .verdict(let verdict):
                conclusion = conclude(step, verdict, from: ruleRequest, instructions: 0)
            case .threw(let message):
                conclusion = fail(step, message, instructions: 0)
            case .missedDeadline(let deadline):
                conclusion = fail(step, "no verdict within its deadline of \(deadline)", instructions: 0)
            }
            switch follow(conclusion, at: match, ruleRequest: &ruleRequest) {
            case .goesOn: continue
            case .declined: return nil
            case .ended(let ending): return ending
            }
        }
        return .decided(.open)
    }

    /// The decision so far, as if it ended now with `outcome`: what the undefined-route
    /// handler reads. The run goes on.
    private func snapshot(_ outcome: Decision.Outcome) -> Decision {
        decision(outcome, match: nil, steps: steps, passed: passed, uri: uri)
    }

    // MARK: - Redirects

    /// Counts a hop to `target`; the refusal when it closes a loop or is one too many.
    private mutating func hop(to target: String) -> Decision.Outcome? {
        // The list of visited URLs is built only to word a refusal; a hop that is allowed
        // allocates nothing but its entry in `passed`.
        if target == currentURL || passed.contains(target) || passed.count + 1 > decider.options.maximumRedirects,
            let refusal = Rejection.redirectRefused(
                to: target, after: passed + [currentURL], maximum: decider.options.maximumRedirects)
        {
            return .reject(refusal)
        }
        passed.append(currentURL)
        return nil
    }

    /// Carries the parameters so far (and a redirect verdict's) to the next URL; the
    /// request stays the caller's own while there is nothing to carry.
    private mutating func carry(_ params: [String: RuleValue]) {
        guard !params.isEmpty || !rewrites.isEmpty else { return }
        if callerParams == nil { callerParams = request.params }
        request.params.merge(rewrites) { _, new in new }
        request.params.merge(params) { _, new in new }
        rewrites = [:]
    }

    // MARK: - The decision and its trace

    /// The decision. The run ends here, so the trace and the URLs passed are moved into
    /// it rather than copied.
    private mutating func finish(
        _ outcome: consuming Decision.Outcome, match: consuming RouteMatch? = nil
    ) -> Decision {
        var steps: [TraceStep] = []
        var passed: [String] = []
        var uri: URI?
        swap(&steps, &self.steps)
        swap(&passed, &self.passed)
        swap(&uri, &self.uri)
        return decision(outcome, match: match, steps: steps, passed: passed, uri: uri)
    }

    /// The decision with `outcome` at `match`, its trace `steps` (the cut, if any, added),
    /// the URLs `passed` and the URL `uri` decided last.
    private func decision(
        _ outcome: consuming Decision.Outcome, match: consuming RouteMatch?, steps: consuming [TraceStep],
        passed: consuming [String], uri: consuming URI?
    ) -> Decision {
        var params = request.params
        if !rewrites.isEmpty { params.merge(rewrites) { _, new in new } }
        var steps = steps
        if traceBytesLeftOut > 0 {
            steps.append(.traceCut(maximum: decider.options.maximumTraceBytes, leftOut: traceBytesLeftOut))
        }
        var original = request
        if let callerParams { original.params = callerParams }
        return Decision(
            outcome: outcome, request: original, uri: uri, match: match,
            redirects: passed,
            carriedParams: params, trace: DecisionTrace(bundle: decider.bundleLabel, steps: steps))
    }

    /// Adds a step to the trace, within ``DeciderOptions/maximumTraceBytes``: past it, the
    /// step keeps its stage, rule and location but not its verdict or long texts.
    ///
    /// What a step keeps is its texts and its verdict's values (`verdictBytes`, which the
    /// caller knows).
    @inline(__always)
    private mutating func record(_ step: consuming TraceStep, verdictBytes: Int = 0) {
        let size = verdictBytes + step.detail.utf8.count + (step.error?.utf8.count ?? 0)
        guard traceBytes + size > decider.options.maximumTraceBytes else {
            traceBytes += size
            steps.append(step)
            return
        }
        compact(step, size: size)
    }

    /// Adds a step past the trace's bound: without its verdict, and of its texts no more
    /// than 80 bytes each while the bound has room (a failed step keeps its error, empty
    /// once the bound is full). What shortened steps keep counts too, so a decision of
    /// many failing rules cannot grow its trace 160 bytes a rule past the bound.
    @inline(never)
    private mutating func compact(_ step: TraceStep, size: Int) {
        let room = max(0, decider.options.maximumTraceBytes - traceBytes)
        var kept = step
        kept.verdict = nil
        kept.detail = Self.prefix(of: step.detail, bytes: min(80, room))
        kept.error = step.error.map { Self.prefix(of: $0, bytes: min(80, room - kept.detail.utf8.count)) }
        let keptSize = kept.detail.utf8.count + (kept.error?.utf8.count ?? 0)
        traceBytes += keptSize
        traceBytesLeftOut += max(0, size - keptSize)
        steps.append(kept)
    }

    /// The longest prefix of `text` of whole characters in at most `bytes` bytes of UTF-8.
    private static func prefix(of text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var (end, used) = (text.startIndex, 0)
        for character in text {
            used += character.utf8.count
            guard used <= bytes else { break }
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    /// Nanoseconds since the previous lap (or the start).
    private mutating func lap() -> Int {
        let now = MonotonicClock.nanoseconds()
        defer { lastTick = now }
        return now - lastTick
    }
}
