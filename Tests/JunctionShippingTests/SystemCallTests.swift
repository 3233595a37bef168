import JunctionShipping
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way system calls are made: again on `EINTR`, and any other failure handed back
/// at once with its `errno`.
@Suite struct SystemCallTests {
    /// What a scripted call does on each attempt: return a value, or fail with an errno.
    enum Attempt: Sendable, CustomStringConvertible {
        case returns(Int32)
        case fails(Int32)

        var description: String {
            switch self {
            case .returns(let value): "returns \(value)"
            case .fails(let code): "fails with errno \(code)"
            }
        }
    }

    /// A call's attempts in order, what the helper ends with (a value or an errno), and how
    /// many attempts it made.
    static let cases: [(attempts: [Attempt], result: Result<Int32, SystemCallError>, made: Int)] = [
        ([.returns(7)], .success(7), 1),
        ([.returns(0)], .success(0), 1),
        // -1 is the failure a system call reports; any other negative value is a result.
        ([.returns(-2)], .success(-2), 1),
        ([.fails(EINTR), .fails(EINTR), .returns(7)], .success(7), 3),
        ([.fails(EACCES), .returns(7)], .failure(SystemCallError(code: EACCES)), 1),
        ([.fails(EINTR), .fails(ENOENT), .returns(7)], .failure(SystemCallError(code: ENOENT)), 2),
        ([.fails(EAGAIN), .returns(7)], .failure(SystemCallError(code: EAGAIN)), 1),
    ]

    @Test(arguments: cases)
    func retriesOnlyWhileTheCallIsInterrupted(
        attempts: [Attempt], result: Result<Int32, SystemCallError>, made: Int
    ) {
        var count = 0
        let outcome = Result { () throws(SystemCallError) -> Int32 in
            try SystemCall.retryingOnInterrupt { () -> Int32 in
                defer { count += 1 }
                switch attempts[count] {
                case .returns(let value):
                    return value
                case .fails(let code):
                    errno = code
                    return -1
                }
            }
        }
        #expect(outcome == result)
        #expect(count == made)
    }

    @Test func aFailureSaysTheSystemsTextAndTheNumber() {
        #expect(SystemCallError(code: ENOENT).description == "No such file or directory (errno 2)")
    }
}
