#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How every system call in the package is made: run again for as long as a signal
/// interrupts it (`EINTR`), and its failure handed back with its `errno`, for the caller to
/// word in its own error. `package` so the CLI and the store probe share it; apps do not
/// see it.
package enum SystemCall {
    /// Runs `call` until it returns something other than -1, or fails with an `errno` other
    /// than `EINTR`.
    ///
    /// `call` is the system call and nothing that could change `errno` after it; it is run
    /// again whole on `EINTR`, so it must be safe to repeat (a `write` at the same offset,
    /// an `open` of the same name).
    /// - Parameter call: A system call that returns -1 and sets `errno` when it fails.
    /// - Returns: What `call` returned when it did not fail.
    /// - Throws: ``SystemCallError`` with the `errno` of the failure, which is not `EINTR`.
    package static func retryingOnInterrupt<Value: FixedWidthInteger & SignedInteger>(
        _ call: () -> Value
    ) throws(SystemCallError) -> Value {
        while true {
            let value = call()
            if value != -1 { return value }
            let number = errno
            if number != EINTR { throw SystemCallError(code: number) }
        }
    }
}
