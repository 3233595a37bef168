import JunctionShipping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line to standard output unbuffered, so a line is out before the next system call.
enum Announcer {
    /// Writes `line` and a newline.
    static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let put = try? SystemCall.retryingOnInterrupt {
                bytes.withUnsafeBytes { write(1, $0.baseAddress! + written, $0.count - written) }
            }
            guard let put else { return }
            written += put
        }
    }
}
