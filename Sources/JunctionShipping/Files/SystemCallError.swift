#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed, and its `errno`: what ``SystemCall/retryingOnInterrupt(_:)``
/// throws, for the caller to turn into its own error with the call and the path.
package struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` the call failed with.
    package let code: Int32

    /// A failure with `errno` `code`.
    package init(code: Int32) {
        self.code = code
    }

    /// The system's text for ``code`` (`No such file or directory`).
    package var reason: String { String(cString: strerror(code)) }

    /// `reason (errno N)`.
    package var description: String { "\(reason) (errno \(code))" }
}
