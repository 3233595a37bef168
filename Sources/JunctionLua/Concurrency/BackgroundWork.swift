import Foundation

/// Work started on a thread of its own, whose result the starting thread collects later.
///
/// A dedicated thread rather than a dispatch queue: the caller blocks in ``wait()``, and a
/// caller that is itself on a pool thread must not wait for work queued behind it on
/// the same pool. `NSCondition` is a pthread condition, which ThreadSanitizer understands.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?

    /// Starts `work` at once.
    init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            condition.lock()
            result = value
            condition.signal()
            condition.unlock()
        }
        thread.start()
    }

    /// Blocks until the work is done.
    /// - Returns: What it returned.
    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
