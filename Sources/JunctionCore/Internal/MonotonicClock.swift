#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock in nanoseconds: one `clock_gettime`, no `Duration` arithmetic —
/// traces read it once per step, the sandbox's time backstop once per count interval.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary, fixed point.
    package static func nanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) &* 1_000_000_000 &+ Int(time.tv_nsec)
    }
}
