#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The wall clock to the kernel's last tick (a few milliseconds on Linux): what a decision's
/// line says to the second, without the precise clock's cost (on this machine's Linux, a
/// twelfth of recording a decision: `log.record`). Where no coarse clock exists, the
/// precise one.
enum CoarseWallClock {
    /// Now, to a few milliseconds.
    static func now() -> Date {
        #if os(Linux)
            var time = timespec()
            clock_gettime(CLOCK_REALTIME_COARSE, &time)
            return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        #else
            return Date()
        #endif
    }
}
