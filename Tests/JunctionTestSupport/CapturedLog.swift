public import Logging
import JunctionCore

/// A logger whose messages a test reads back: every copy of its handler appends to one list.
public final class CapturedLog: Sendable {
    private let storage = Locked<[(level: Logger.Level, message: String)]>([])

    /// An empty log.
    public init() {}

    /// A logger that appends here.
    public var logger: Logger {
        Logger(label: "junction.test") { _ in Handler(log: self) }
    }

    /// Every message so far, in order.
    public var messages: [String] { storage.withLock { $0.map(\.message) } }

    /// Every message so far, with its level.
    public var entries: [(level: Logger.Level, message: String)] { storage.withLock { $0 } }

    /// Forgets the messages so far.
    public func clear() { storage.withLock { $0.removeAll() } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.storage.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }
}
