import JunctionCore

/// An ``AsyncInterceptor`` added to a router, with its patterns compiled: a step of the
/// decision's async stage.
struct RegisteredAsyncInterceptor: Sendable {
    let interceptor: AsyncInterceptor
    /// The patterns of a `pattern` or `patterns` scope.
    let patterns: RouteTable?
    /// The order it was added in, to break priority ties.
    let order: Int
    /// The step the decision records and reads its verdicts as: a rule of its scope's
    /// stage, at location `async`, with its `onError`.
    let step: PolicyStep

    init(interceptor: AsyncInterceptor, patterns: RouteTable?, order: Int) {
        self.interceptor = interceptor
        self.patterns = patterns
        self.order = order
        step = PolicyStep(
            stage: Self.stage(of: interceptor.scope), name: interceptor.name, location: "async",
            priority: interceptor.priority, onError: interceptor.onError, body: .async, order: order)
    }

    /// Whether it sees a request that matched `match`.
    func applies(to match: RouteMatch) -> Bool {
        switch interceptor.scope {
        case .all: return true
        case .group(let group): return match.route.groups.contains(group)
        case .route(let name): return match.route.name == name
        case .routes(let names): return names.contains(match.route.name)
        case .pattern, .patterns: return patterns?.match(match.uri) != nil
        }
    }

    /// The trace's stage for its steps: where a rule of the same scope runs.
    static func stage(of scope: SwiftInterceptor.Scope) -> TraceStep.Stage {
        switch scope {
        case .all: return .global
        case .group: return .group
        case .route, .routes, .pattern, .patterns: return .route
        }
    }
}

/// What one async interceptor's run came to.
enum AsyncInterceptorEnding: Sendable {
    case verdict(Verdict)
    case threw(String)
    case missedDeadline(Duration)
}

extension RegisteredAsyncInterceptor {
    /// Runs the interceptor off the caller's actor, racing its deadline: at the deadline its
    /// task is cancelled and the run ends at once, whether or not the interceptor notices.
    @concurrent
    func run(_ request: RuleRequest, _ context: ContextSnapshot) async -> AsyncInterceptorEnding {
        let interceptor = self.interceptor
        return await withCheckedContinuation { (continuation: CheckedContinuation<AsyncInterceptorEnding, Never>) in
            let settled = Locked(false)
            let resume: @Sendable (AsyncInterceptorEnding) -> Bool = { ending in
                let first = settled.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: ending) }
                return first
            }
            let work = Task {
                let ending: AsyncInterceptorEnding
                do { ending = .verdict(try await interceptor.run(request, context)) } catch {
                    ending = .threw("\(error)")
                }
                _ = resume(ending)
            }
            Task {
                try? await Task.sleep(for: interceptor.deadline)
                if resume(.missedDeadline(interceptor.deadline)) { work.cancel() }
            }
        }
    }
}
