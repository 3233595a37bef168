import JunctionTooling
import Testing

@testable import JunctionCLI

/// When zlib refuses to start, the gzip reader throws a clear error and frees its stream
/// once: the initializer had freed it and then `deinit` — which runs for a class whose
/// stored properties were all set — ended and freed it again (a double free, fatal in
/// glibc). A window zlib refuses makes it refuse to start.
@Suite struct GzipStartFailureTests {
    @Test(arguments: [Int32(99), 7, -1])
    func aStreamZlibWillNotStartIsRefusedAndFreedOnce(windowBits: Int32) throws {
        for _ in 0..<100 {
            #expect {
                _ = try GzipBytes(compressed: MemoryBytes([0x1f, 0x8b]), file: "start.gz", windowBits: windowBits)
            } throws: { error in
                (error as? CorpusError)?.message == "gzip: zlib could not start"
            }
        }
    }
}
