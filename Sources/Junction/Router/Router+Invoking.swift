public import JunctionCore

extension Router {
    /// Calls a task by URL, synchronously: another module's function without importing
    /// it. Rules apply as to `open`; a rule's `respond` answers without any task.
    ///
    /// ```swift
    /// let shared = try router.invoke("myapp://action/share", params: ["text": "Look!"])
    /// ```
    /// - Parameters:
    ///   - url: The URL.
    ///   - params: Extra parameters, as for `open`.
    ///   - exts: Non-business options.
    ///   - source: Who asks.
    /// - Returns: The task's value, or the rule's answer (a ``RuleValue``).
    /// - Throws: `RouterError`: ``RouterError/Code/unknownRoute``, ``RouterError/Code/rejected``,
    ///   ``RouterError/Code/gated`` (a rule wants a page opened first: use the `async`
    ///   variant, which opens it and resumes), ``RouterError/Code/notATask``,
    ///   ``RouterError/Code/asynchronousTask``, ``RouterError/Code/asynchronousInterceptor``
    ///   (an ``AsyncInterceptor`` covers the route: use the `async` variant), parameter
    ///   errors, ``RouterError/Code/targetFailed``.
    @discardableResult
    public func invoke(
        _ url: String, params: [String: any Sendable] = [:], exts: [String: RuleValue] = [:],
        source: RequestSource = .internal
    ) throws(RouterError) -> (any Sendable)? {
        let (values, objects) = SendableBridge.split(params)
        let request = withStackTop(RouteRequest(url, params: values, exts: exts, source: source))
        willOpen?(request)
        let decision = decider.decide(request, context: context)
        decisionObserver?(decision)
        // An async interceptor guards what it covers: a synchronous call that cannot wait for
        // it must not get past it.
        if case .open = decision.outcome, let match = decision.match,
            let guarding = asyncInterceptors.first(where: { $0.applies(to: match) })
        {
            throw report(
                request,
                RouterError(
                    .asynchronousInterceptor,
                    "the async interceptor \"\(guarding.interceptor.name)\" sees this request first, and a "
                        + "synchronous invoke cannot wait for it; use the async invoke",
                    url: decision.uri?.string ?? url, route: match.route.name))
        }
        switch answerable(decision, objects: objects) {
        case .value(let value):
            didOpen?(request, .answered(value))
            return value
        case .task(let body, let taskRequest):
            switch body {
            case .sync(let body):
                do {
                    let value = try body(taskRequest)
                    didOpen?(request, .answered(value))
                    return value
                } catch {
                    throw report(request, taskFailure(error, taskRequest))
                }
            case .async:
                throw report(
                    request,
                    RouterError(
                        .asynchronousTask,
                        "the task \"\(taskRequest.route.target)\" is asynchronous; call it with `try await invoke`",
                        url: taskRequest.url, route: taskRequest.route.name))
            }
        case .gate(let gateURL, _):
            throw report(
                request,
                RouterError(
                    .gated,
                    "a rule asks to open \(gateURL) first; the synchronous invoke cannot, `try await invoke` can",
                    url: gateURL, route: decision.match?.route.name))
        case .error(let error):
            throw report(request, error)
        }
    }

    /// Calls a task by URL and checks the type of what it returns. A rule's answer
    /// converts to `String`, `Int`, `Int64`, `Double`, `Bool`, `[String: RuleValue]` or
    /// `[RuleValue]` when it has that shape.
    /// - Parameters:
    ///   - url: The URL.
    ///   - type: The type expected.
    ///   - params: Extra parameters.
    ///   - source: Who asks.
    /// - Returns: The value.
    /// - Throws: `RouterError`, ``RouterError/Code/wrongResultType`` when the value has another type.
    public func invoke<T>(
        _ url: String, as type: T.Type, params: [String: any Sendable] = [:], source: RequestSource = .internal
    ) throws(RouterError) -> T {
        try Self.cast(try invoke(url, params: params, source: source), to: type, url: url)
    }

    /// Calls a task by URL, deciding off the main actor and awaiting asynchronous tasks.
    /// When a rule gates the request (log in first), the gate's page is opened and the
    /// call waits: it resumes through the whole pipeline when that page finishes with
    /// `ok`, and throws ``RouterError/Code/cancelled`` otherwise.
    /// - Parameters:
    ///   - url: The URL.
    ///   - params: Extra parameters.
    ///   - exts: Non-business options.
    ///   - source: Who asks.
    /// - Returns: The task's value, or the rule's answer.
    /// - Throws: `RouterError`, as the synchronous variant, but never `gated`, `asynchronousTask`
    ///   or `asynchronousInterceptor`: it runs async interceptors and follows their redirects.
    @discardableResult
    public func invoke(
        _ url: String, params: [String: any Sendable] = [:], exts: [String: RuleValue] = [:],
        source: RequestSource = .internal
    ) async throws(RouterError) -> (any Sendable)? {
        let (values, objects) = SendableBridge.split(params)
        var request = RouteRequest(url, params: values, exts: exts, source: source)
        var passedGates: [String] = []
        while true {
            request = withStackTop(request)
            willOpen?(request)
            let decision = await decide(request, passedGates: passedGates)
            decisionObserver?(decision)
            switch answerable(decision, objects: objects) {
            case .value(let value):
                didOpen?(request, .answered(value))
                return value
            case .task(let body, let taskRequest):
                do {
                    let value: (any Sendable)?
                    switch body {
                    case .sync(let body): value = try body(taskRequest)
                    case .async(let body): value = try await Self.runOffMain(body, taskRequest)
                    }
                    didOpen?(request, .answered(value))
                    return value
                } catch {
                    throw report(request, taskFailure(error, taskRequest))
                }
            case .gate(let gateURL, let resume):
                let current = decision.uri?.string ?? url
                passedGates.append(gateURL)
                let gateResult = await openAndWait(
                    RouteRequest(
                        gateURL, source: .internal, gatedRequests: request.gatedRequests + [current]))
                guard gateResult.code == .ok, resume else {
                    throw report(
                        request,
                        RouterError(
                            .cancelled,
                            "\(gateURL) ended \(gateResult.code)" + (resume ? "" : "; the gate does not resume"),
                            url: current))
                }
                request = RouteRequest(url, params: values, exts: exts, source: source)
            case .error(let error):
                throw report(request, error)
            }
        }
    }

    /// Calls a task by URL, off the main actor, and checks the type of what it returns.
    /// - Parameters:
    ///   - url: The URL.
    ///   - type: The type expected.
    ///   - params: Extra parameters.
    ///   - source: Who asks.
    /// - Returns: The value.
    /// - Throws: `RouterError`, ``RouterError/Code/wrongResultType`` when the value has another type.
    public func invoke<T>(
        _ url: String, as type: T.Type, params: [String: any Sendable] = [:], source: RequestSource = .internal
    ) async throws(RouterError) -> T {
        try Self.cast(try await invoke(url, params: params, source: source), to: type, url: url)
    }

    // MARK: - Internals

    /// What a decision gives an `invoke`.
    private enum Answer {
        case value((any Sendable)?)
        case task(TaskBody, TaskRequest)
        case gate(String, Bool)
        case error(RouterError)
    }

    private func answerable(_ decision: Decision, objects: [String: any Sendable]) -> Answer {
        let url = decision.uri?.string ?? decision.request.url
        switch decision.outcome {
        case .respond(let value):
            return .value(value)
        case .reject(let rejection):
            return .error(
                RouterError(
                    .rejected, rejection.description, url: url, route: decision.match?.route.name,
                    rejection: rejection))
        case .gate(let gateURL, let resume):
            return .gate(gateURL, resume)
        case .handOver(let scheme):
            return .error(
                RouterError(
                    .notATask, "the URL goes to the \(scheme) dispatcher, which opens pages; use open", url: url))
        case .unmatched:
            return .error(RouterError(.unknownRoute, "no route or fallback takes this URL", url: url))
        case .open:
            guard let route = decision.match?.route else {
                return .error(RouterError(.unknownRoute, "no route", url: url))
            }
            guard let body = tasks[route.target] else {
                if pageFactories[route.target] != nil {
                    return .error(
                        RouterError(
                            .notATask, "route \"\(route.name)\" leads to the page \"\(route.target)\"; open it instead",
                            url: url,
                            route: route.name))
                }
                return .error(
                    RouterError(
                        .noTarget,
                        "route \"\(route.name)\" leads to target \"\(route.target)\", which has no task registered",
                        url: url, route: route.name))
            }
            do {
                let params = try ParameterBinding.bind(decision, objects: objects)
                return .task(
                    body,
                    TaskRequest(
                        route: route, url: url, params: params, exts: decision.request.exts,
                        source: decision.request.source,
                        decision: decision))
            } catch {
                return .error(error)
            }
        }
    }

    /// Opens `request` (a gate's page) and waits for its result.
    private func openAndWait(_ request: RouteRequest) async -> RouteResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<RouteResult, Never>) in
            let pending = PendingOpen(
                request: request, objects: [:], style: nil, onResult: { continuation.resume(returning: $0) })
            track { _ = await self.perform(pending) }
        }
    }

    private func taskFailure(_ error: any Error, _ request: TaskRequest) -> RouterError {
        RouterError(
            .targetFailed, "the task \"\(request.route.target)\" threw: \(error)", url: request.url,
            route: request.route.name,
            underlying: error)
    }

    private func report(_ request: RouteRequest, _ error: RouterError) -> RouterError {
        didOpen?(request, .failed(error))
        return error
    }

    private static func cast<T>(_ value: (any Sendable)?, to expected: T.Type, url: String) throws(RouterError) -> T {
        if let value = value as? T { return value }
        if let rule = value as? RuleValue {
            let converted: Any?
            switch rule {
            case .string(let text): converted = text
            case .int(let number): converted = T.self == Int.self ? Int(exactly: number) as Any? : number
            case .double(let number): converted = number
            case .bool(let flag): converted = flag
            case .table(let fields): converted = fields
            case .array(let elements): converted = elements
            case .nil, .bytes: converted = nil
            }
            if let converted = converted as? T { return converted }
        }
        throw RouterError(
            .wrongResultType, "expected \(T.self), got \(value.map { "\(type(of: $0))" } ?? "nil")", url: url)
    }
}
