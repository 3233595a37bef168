extension Router {
    /// The most opens held before ``ready()``; one more fails at once with
    /// ``RouterError/Code/notReady``, so a flood of links at launch cannot queue without end.
    public nonisolated static let maximumHeldOpens = 32

    /// Whether opens are decided as they come: `false` from ``holdUntilReady(deadline:)``
    /// until ``ready()`` has carried out every held open.
    public var isReady: Bool {
        if case .ready = held.state { return true }
        return false
    }

    /// The URLs of the opens waiting for ``ready()``, in the order they arrived.
    public var heldURLs: [String] { held.queue.map(\.pending.request.url) }

    /// Holds every `open` from now on until ``ready()`` is called — at a cold start, the
    /// links that launched the app arrive before the app knows whether anyone is logged in,
    /// and deciding them then would send a logged-in user to the login page.
    ///
    /// ```swift
    /// router.holdUntilReady(deadline: .seconds(10))     // in application(_:didFinishLaunchingWithOptions:)
    /// // … a push link arrives: `await router.open(link, source: .push)` waits …
    /// router.context = ContextSnapshot(["user": session.user])
    /// router.ready()                                    // the link is decided now, under the known context
    /// ```
    ///
    /// Held opens are decided in the order they arrived, under the context of the moment
    /// `ready()` carries each out. One held longer than `deadline` fails with
    /// ``RouterError/Code/notReady`` (its opener gets `failed`); so does an open arriving
    /// when ``maximumHeldOpens`` are held. `invoke`, `page(for:)` and tabs are not held.
    /// - Parameter deadline: How long each open may wait; at most one hour.
    public func holdUntilReady(deadline: Duration = .seconds(10)) {
        precondition(
            deadline > .zero && deadline <= .seconds(3_600),
            "holdUntilReady(deadline:) takes more than zero and at most an hour, got \(deadline)")
        if case .ready = held.state { held.state = .holding(deadline: deadline) }
    }

    /// Carries out the held opens, in order, then decides opens as they come. Opens that
    /// arrive while the held ones are carried out wait behind them.
    public func ready() {
        guard case .holding = held.state else { return }
        held.state = .draining
        track { await self.drainHeldOpens() }
    }

    /// Holds `pending` when the router is not ready; `nil` when it should go on now.
    func holdIfNotReady(_ pending: PendingOpen) async -> Opening? {
        let deadline: Duration?
        switch held.state {
        case .ready: return nil
        case .holding(let limit): deadline = limit
        case .draining: deadline = nil
        }
        let url = pending.request.url
        guard held.queue.count < Self.maximumHeldOpens else {
            return refuseHeld(
                pending,
                "\(Self.maximumHeldOpens) opens are already waiting for router.ready(); this one was not held")
        }
        let ticket = held.nextTicket
        held.nextTicket += 1
        return await withCheckedContinuation { continuation in
            held.queue.append(HeldOpens.Held(ticket: ticket, pending: pending, continuation: continuation))
            guard let deadline else { return }
            Task { [weak self] in
                try? await Task.sleep(for: deadline)
                self?.expireHeldOpen(ticket, url: url, after: deadline)
            }
        }
    }

    private func expireHeldOpen(_ ticket: Int, url: String, after deadline: Duration) {
        guard case .holding = held.state, let index = held.queue.firstIndex(where: { $0.ticket == ticket }) else {
            return
        }
        let expired = held.queue.remove(at: index)
        expired.continuation.resume(
            returning: refuseHeld(
                expired.pending, "held \(deadline) waiting for router.ready(), which was not called; not opened"))
    }

    private func refuseHeld(_ pending: PendingOpen, _ message: String) -> Opening {
        let error = RouterError(.notReady, message, url: pending.request.url)
        pending.deliver(error.result)
        didOpen?(pending.request, .failed(error))
        return .failed(error)
    }

    private func drainHeldOpens() async {
        while !held.queue.isEmpty {
            let next = held.queue.removeFirst()
            next.continuation.resume(returning: await perform(next.pending))
        }
        held.state = .ready
    }
}
