import Foundation

/// A value behind a lock that ThreadSanitizer understands.
///
/// `Synchronization.Mutex` waits on raw futex system calls on Linux, which the thread
/// sanitizer does not intercept, so every correctly locked access would be reported as a
/// race; `NSLock` is a pthread mutex, which it does.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
