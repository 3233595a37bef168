public import JunctionCore

extension Router {
    /// Adds an interceptor that may `await`: the last stage of the decision, run off the
    /// main actor for every route that would open whose scope it covers — higher priority
    /// first — each under its deadline: for `open`, the async `invoke`, `page(for:)`,
    /// `setTabs` and back stacks. The synchronous `invoke` cannot wait, so it refuses such a
    /// request (``RouterError/Code/asynchronousInterceptor``). Its verdict is read as a
    /// rule's, by the same code: `continue` goes on; `next()` declines the route, and the
    /// next route that matches is tried; `reject` refuses; `redirect` (with `keep_query`)
    /// decides the new URL in the same decision, counted with the rules' redirects against
    /// ``DeciderOptions/maximumRedirects``; `gate` opens the gate's page first, bounded as a
    /// rule's gate is; `respond` answers; `rewrite` changes the route's parameters. Verdict
    /// sizes count against ``DeciderOptions/maximumVerdictBytes``. A throw or a missed
    /// deadline follows its ``AsyncInterceptor/onError``. Each run is a step of the
    /// decision's trace (location `async`), which ``decisionObserver`` then sees.
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

    /// Decides `request` off the main actor, with the async interceptors, the gates the
    /// request passed and (for `open`) the undefined-route handler as stages of the same
    /// decision (``Decider``'s pipeline, awaited in segments with no engine held while they
    /// await): one trace, one redirect count, one reading of verdicts.
    /// - Parameters:
    ///   - request: The request, with its `top_route`.
    ///   - passedGates: The gates it passed and resumed after.
    ///   - askingUndefinedRoute: Whether a URL nothing takes goes to ``undefinedRouteHandler``
    ///     (`open` only).
    /// - Returns: The decision; the caller reports it to ``decisionObserver``.
    func decide(_ request: RouteRequest, passedGates: [String] = [], askingUndefinedRoute: Bool = false) async
        -> Decision
    {
        var stage = AsyncStage(interceptors: asyncInterceptors, passedGates: passedGates)
        if askingUndefinedRoute, undefinedRouteHandler != nil {
            stage.undefinedRoute = { @MainActor [weak self] decision in self?.replacement(forUnmatched: decision) }
        }
        return await Self.decideOffMain(decider, request, context, stage)
    }

    /// What ``undefinedRouteHandler`` opens instead of the URL of `decision`, which nothing
    /// takes — unless a dispatcher registered for its scheme takes it (it goes first).
    private func replacement(forUnmatched decision: Decision) -> String? {
        if let scheme = decision.uri?.scheme, dispatchers[scheme] != nil { return nil }
        return undefinedRouteHandler?(decision)
    }

    /// Rules and interceptors can take time: keep them off the main actor.
    @concurrent
    nonisolated static func decideOffMain(
        _ decider: Decider, _ request: RouteRequest, _ context: ContextSnapshot, _ stage: AsyncStage
    ) async -> Decision {
        stage.isEmpty
            ? decider.decide(request, context: context)
            : await decider.decide(request, context: context, awaiting: stage)
    }
}
