/// Why a benchmark run stopped: bad arguments, a route table that did not build, or
/// matchers that disagree and so would not be doing the same work.
struct BenchmarkFailure: Error, CustomStringConvertible {
    /// What went wrong and what to do about it.
    var message: String
    /// The process exit status to report: 64 (usage) for bad arguments, 1 otherwise.
    var exitStatus: Int32

    init(_ message: String, exitStatus: Int32 = 1) {
        self.message = message
        self.exitStatus = exitStatus
    }

    var description: String { message }
}
