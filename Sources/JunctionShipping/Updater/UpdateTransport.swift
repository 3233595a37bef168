/// How the updater reaches the host: one bounded GET at a time. ``URLSessionTransport``
/// speaks HTTP(S) with every cache off; ``FileTransport`` reads `file://` URLs (the embedded
/// default, and tests). Tests inject faults with their own.
///
/// A transport must honour the request's bounds — it reads at most
/// ``TransportRequest/maximumBytes`` plus one byte of body (one more tells the caller the
/// body was longer) and gives up at ``TransportRequest/deadline`` — and must stop promptly
/// when its task is cancelled. What the body says is not its concern: the pointer and the
/// artifact are verified by signature and hash after it returns.
public protocol UpdateTransport: Sendable {
    /// Sends `request`.
    /// - Parameter request: The URL, the validator, and the bounds.
    /// - Returns: The response: `200` with its body, `304` when the validator still holds,
    ///   or any other status the server answered with (and an empty body).
    /// - Throws: ``UpdateTransportError`` when no response could be had within the bounds.
    func send(_ request: TransportRequest) async throws(UpdateTransportError) -> TransportResponse
}
