import Dispatch

extension TransportRequest {
    /// Runs `expire` at the request's deadline, unless the returned item is cancelled first.
    ///
    /// A dispatch timer, not a task: the deadline fires even while every thread of the
    /// cooperative pool is busy.
    func scheduleDeadline(_ expire: @escaping @Sendable () -> Void) -> DispatchWorkItem {
        let item = DispatchWorkItem(block: expire)
        let (seconds, attoseconds) = (deadline - ContinuousClock.now).components
        let nanoseconds = max(0, min(seconds, 86_400 * 365)) * 1_000_000_000 + attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: item)
        return item
    }
}
