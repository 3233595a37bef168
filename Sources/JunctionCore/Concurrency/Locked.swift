#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock: a pthread mutex of its own, which ThreadSanitizer understands
/// and every platform Junction runs on has (no `Synchronization`, which needs iOS 18). The
/// one lock of every Junction module (`package`: apps do not see it).
///
/// A pthread mutex rather than `NSLock`: the engine pool takes this lock twice in every
/// decision, and `NSLock`'s dispatch and bookkeeping cost 4.5% of a decision's instructions
/// (callgrind on `decide.junction`); `Synchronization.Mutex` waits on raw futex calls
/// that the thread sanitizer does not intercept.
package final class Locked<Value>: @unchecked Sendable {
    // Sound because `value` is read and written only inside `withLock`, between locking
    // and unlocking `mutex`; and `mutex` is allocated once, so it stays at one address
    // (as a pthread mutex must) from `init` to `deinit`. A value that is not Sendable
    // crosses threads only through the lock, one holder at a time.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Unchecked, because the mutex already makes every access exclusive: the dynamic
    // check would cost a decision two more runtime calls for each lock.
    @exclusivity(unchecked) private var value: Value

    /// A lock around `value`.
    /// - Parameter value: The value it starts with.
    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
