public import Foundation

/// Where and how a ``DecisionLogUploader`` sends the decision log: the collector's URLs and
/// token, how often, how large a batch, how long one exchange may take, and how it backs
/// off when the collector fails.
public struct DecisionLogUploaderConfiguration: Sendable, Hashable {
    /// Where decision batches are posted (`…/v1/logs/decisions`).
    public var decisionsURL: URL
    /// Where status batches are posted (`…/v1/logs/status`).
    public var statusURL: URL
    /// The bearer token sent with every batch, if the collector wants one.
    public let bearerToken: String?
    /// The time between uploads while the collector takes them; the uploader also goes at
    /// once when a buffer is half full. 60 seconds by default, at least 1 second.
    public var interval: Duration {
        didSet { interval = max(interval, .seconds(1)) }
    }
    /// The most bytes of lines in one batch, before compression: 256 KiB by default. A
    /// collector that answers `413` gets the batch again in halves.
    public var maximumBatchBytes: Int {
        didSet { maximumBatchBytes = max(maximumBatchBytes, DecisionLogLine.maximumBytes) }
    }
    /// How long one POST may take, connecting included: 30 seconds by default.
    public var exchangeTimeout: Duration
    /// The waits after failed uploads (exponential, full jitter): from 5 seconds up to 15
    /// minutes by default.
    public var backoff: RetrySchedule
    /// The longest `Retry-After` honoured: 1 hour by default.
    public var maximumRetryAfter: Duration

    /// The error a configuration refuses a token with.
    public struct InvalidToken: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var description: String {
            "the bearer token is not 1 to 4,096 of A-Z a-z 0-9 - . _ ~ + / followed by = padding (RFC 6750)"
        }
    }

    /// A configuration posting to a collector that takes `/v1/logs/decisions` and
    /// `/v1/logs/status` under `collector` (`junction logs serve`, or a proxy in front of
    /// Vector or Fluent Bit).
    /// - Parameters:
    ///   - collector: The collector's base URL (`http://127.0.0.1:8181`).
    ///   - bearerToken: The token, if any.
    /// - Throws: ``InvalidToken`` for a token that cannot be sent as a header.
    public init(collector: URL, bearerToken: String? = nil) throws(InvalidToken) {
        try self.init(
            decisionsURL: collector.appendingPathComponent("v1/logs/decisions"),
            statusURL: collector.appendingPathComponent("v1/logs/status"), bearerToken: bearerToken)
    }

    /// A configuration.
    /// - Parameters:
    ///   - decisionsURL: Where decision batches go.
    ///   - statusURL: Where status batches go.
    ///   - bearerToken: The token, if any.
    ///   - interval: The time between uploads.
    ///   - maximumBatchBytes: The most bytes of lines in a batch.
    ///   - exchangeTimeout: The most one POST takes (positive).
    ///   - backoff: The waits after failures.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured.
    /// - Throws: ``InvalidToken`` for a token that cannot be sent as a header.
    public init(
        decisionsURL: URL, statusURL: URL, bearerToken: String? = nil, interval: Duration = .seconds(60),
        maximumBatchBytes: Int = 256 * 1024, exchangeTimeout: Duration = .seconds(30),
        backoff: RetrySchedule = RetrySchedule(base: .seconds(5), cap: .seconds(15 * 60)),
        maximumRetryAfter: Duration = .seconds(3_600)
    ) throws(InvalidToken) {
        precondition(exchangeTimeout > .zero, "an exchange's timeout is positive")
        if let bearerToken, !TransportUpload.isBearerToken(bearerToken) { throw InvalidToken() }
        self.decisionsURL = decisionsURL
        self.statusURL = statusURL
        self.bearerToken = bearerToken
        self.interval = max(interval, .seconds(1))
        self.maximumBatchBytes = max(maximumBatchBytes, DecisionLogLine.maximumBytes)
        self.exchangeTimeout = exchangeTimeout
        self.backoff = backoff
        self.maximumRetryAfter = max(maximumRetryAfter, .zero)
    }

    /// Where batches of `kind` go.
    public func url(for kind: DecisionLogKind) -> URL {
        switch kind {
        case .decisions: decisionsURL
        case .status: statusURL
        }
    }
}
