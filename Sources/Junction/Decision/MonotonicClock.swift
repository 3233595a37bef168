#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic clock in nanoseconds: one `clock_gettime`, no `Duration` arithmetic —
/// traces read it once per step.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary, fixed point.
    static func nanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) &* 1_000_000_000 &+ Int(time.tv_nsec)
    }
}
