import Dispatch
import Junction
import JunctionShipping

/// A Swift interceptor that stops every decision it sees until the test releases it: a
/// decision held in flight deterministically, without sleeping.
final class HeldInterceptor: Sendable {
    /// Signalled when a decision reaches the interceptor.
    let entered = DispatchSemaphore(value: 0)
    /// Waited on by the held decision.
    let release = DispatchSemaphore(value: 0)

    /// The interceptor, for every route; it continues once released.
    var interceptor: SwiftInterceptor {
        SwiftInterceptor("held", scope: .all) { [entered, release] _, _ in
            entered.signal()
            release.wait()
            return .continue
        }
    }
}
