public import JunctionCore

extension Router {
    /// Adds an interceptor that may `await`: it runs after the decision, off the main
    /// actor, for every request the decision opens whose route its scope covers — higher
    /// priority first — each under its deadline: for `open`, the async `invoke`,
    /// `page(for:)`, `setTabs` and back stacks. The synchronous `invoke` cannot wait, so it
    /// refuses such a request (``RouterError/Code/asynchronousInterceptor``). Its verdict acts as a rule's: `continue`
    /// goes on; `reject` refuses; `redirect` opens the new URL through the whole pipeline
    /// (counted against ``DeciderOptions/maximumRedirects``); `gate` opens the gate's page
    /// first; `respond` answers; `rewrite` changes the target's parameters. A throw, a missed
    /// deadline or `next()` follows its ``AsyncInterceptor/onError``. Each run is a step of
    /// the decision's trace, which ``decisionObserver`` then sees.
    ///
    /// The context is the router's when the request was decided; a change while the
    /// interceptor awaits reaches the next request (and a gate's resumption), not this one.
    /// - Parameter interceptor: The interceptor; its name must be new among the async ones.
    /// - Throws: `BundleError` when its name is taken or a pattern of its scope does not
    ///   compile; nothing changes then.
    public func add(_ interceptor: AsyncInterceptor) throws(BundleError) {
        guard !asyncInterceptors.contains(where: { $0.interceptor.name == interceptor.name }) else {
            throw BundleError([
                Diagnostic(
                    .error, "an async interceptor named \"\(interceptor.name)\" is already added; remove it first")
            ])
        }
        let patterns: [String]? =
            switch interceptor.scope {
            case .pattern(let pattern): [pattern]
            case .patterns(let patterns): patterns
            case .all, .group, .route, .routes: nil
            }
        var table: RouteTable?
        if let patterns {
            do {
                table = try RouteTable(
                    routes: patterns.enumerated().map { Route(name: "pattern.\($0.offset)", pattern: $0.element) },
                    options: decider.routes.options)
            } catch {
                throw BundleError(
                    error.diagnostics.map {
                        Diagnostic(.error, "async interceptor \"\(interceptor.name)\": \($0.message)")
                    })
            }
        }
        let order = (asyncInterceptors.map(\.order).max() ?? -1) + 1
        asyncInterceptors.append(RegisteredAsyncInterceptor(interceptor: interceptor, patterns: table, order: order))
        asyncInterceptors.sort { ($0.interceptor.priority, -$0.order) > ($1.interceptor.priority, -$1.order) }
    }

    /// Removes the async interceptor named `name`.
    /// - Parameter name: Its name.
    /// - Returns: Whether there was one.
    @discardableResult
    public func removeAsyncInterceptor(named name: String) -> Bool {
        let before = asyncInterceptors.count
        asyncInterceptors.removeAll { $0.interceptor.name == name }
        return asyncInterceptors.count != before
    }

    /// Where the async interceptors leave a request.
    enum AsyncStageEnding {
        /// Carry out the (possibly changed) decision.
        case decided(Decision)
        /// Open this URL instead, with these parameters carried.
        case redirected(Decision, to: String, params: [String: RuleValue])
    }

    /// Decides `request` off the main actor and runs the async interceptors on the decision;
    /// a redirect of theirs decides the new URL the same way — as the same source, with the
    /// redirect's parameters merged in — at most ``DeciderOptions/maximumRedirects`` times,
    /// then refuses (cause `too_many_redirects`). For `invoke`, `page(for:)`, tabs and back
    /// stacks, which have no pending open to carry from URL to URL as `open` does.
    /// - Returns: The last decision; ``decisionObserver`` has seen those before it, the
    ///   caller reports this one.
    func decideAwaitingInterceptors(_ request: RouteRequest, context: ContextSnapshot) async -> Decision {
        var request = request
        var redirects = 0
        while true {
            let decided = await Self.decideOffMain(decider, request, context)
            switch await runAsyncInterceptors(decided, context: context) {
            case .decided(let decision):
                return decision
            case .redirected(var decision, let url, let params):
                guard redirects < decider.options.maximumRedirects else {
                    decision.outcome = .reject(tooManyAsyncRedirects(redirects + 1, decision, to: url))
                    return decision
                }
                decisionObserver?(decision)
                redirects += 1
                request = RouteRequest(
                    url, params: request.params.merging(params) { _, new in new }, exts: request.exts,
                    source: request.source)
            }
        }
    }

    /// The refusal of an async interceptor's redirect beyond ``DeciderOptions/maximumRedirects``.
    /// - Parameters:
    ///   - count: The redirects so far, this one included.
    ///   - decision: The decision redirected from.
    ///   - url: Where to.
    func tooManyAsyncRedirects(_ count: Int, _ decision: Decision, to url: String) -> Rejection {
        let from = decision.uri?.string ?? decision.request.url
        let reason =
            "async interceptors redirected \(count) times, more than the \(decider.options.maximumRedirects) "
            + "the decider allows; last from \(from) to \(url)"
        return Rejection(.tooManyRedirects, reason: reason, code: 508)
    }

    /// Runs the async interceptors that see `decision`, in order, each off the main actor.
    func runAsyncInterceptors(_ decision: Decision, context: ContextSnapshot) async -> AsyncStageEnding {
        guard !asyncInterceptors.isEmpty, case .open = decision.outcome, let match = decision.match else {
            return .decided(decision)
        }
        var decision = decision
        for registered in asyncInterceptors where registered.applies(to: match) {
            let interceptor = registered.interceptor
            var carried = decision.request
            carried.params = decision.carriedParams
            let request = RuleRequest(match: match, request: carried)
            let started = ContinuousClock.now
            let ending = await registered.run(request, context)
            let elapsed = (ContinuousClock.now - started).components
            let nanoseconds = Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
            func step(verdict: Verdict? = nil, error: String? = nil) {
                decision.trace.steps.append(
                    TraceStep(
                        registered.stage, name: interceptor.name, verdict: verdict, detail: "async", error: error,
                        nanoseconds: nanoseconds))
            }
            func failed(_ message: String) -> Bool {
                step(error: message)
                guard interceptor.onError == .reject else { return false }
                decision.outcome = .reject(
                    Rejection(
                        .ruleFailed, reason: "async interceptor \"\(interceptor.name)\" failed: \(message)", code: 500,
                        rule: interceptor.name))
                return true
            }
            switch ending {
            case .threw(let message):
                if failed(message) { return .decided(decision) }
            case .missedDeadline(let deadline):
                if failed("no verdict within its deadline of \(deadline)") { return .decided(decision) }
            case .verdict(let verdict):
                switch verdict {
                case .continue:
                    step(verdict: verdict)
                case .next:
                    if failed("next() has no other route to try after the decision; return nil, reject or redirect") {
                        return .decided(decision)
                    }
                case .rewrite(let params):
                    step(verdict: verdict)
                    decision.carriedParams.merge(params) { _, new in new }
                case .reject(let reason, let code):
                    step(verdict: verdict)
                    decision.outcome = .reject(Rejection(.rule, reason: reason, code: code, rule: interceptor.name))
                    return .decided(decision)
                case .gate(let url, let resume):
                    step(verdict: verdict)
                    decision.outcome = .gate(url: url, resume: resume)
                    return .decided(decision)
                case .respond(let value):
                    step(verdict: verdict)
                    decision.outcome = .respond(value)
                    return .decided(decision)
                case .redirect(let url, let params, _):
                    step(verdict: verdict)
                    return .redirected(decision, to: url, params: params)
                }
            }
        }
        return .decided(decision)
    }
}
