import Foundation
import JunctionShipping
import Testing

@testable import JunctionCLI

/// The caps that hold against a hostile client: slow headers and bodies time out, a gzip
/// bomb is refused while it inflates and costs no memory, and connections past the cap are
/// answered 503.
@Suite struct LogsBoundsTests {
    static let head = Array("POST /v1/logs/decisions HTTP/1.1\r\nContent-Length: 1000\r\n\r\n".utf8)

    @Test func headersTricklingInAreCutAtTheHeaderTimeoutNotAtEachPause() throws {
        let collector = try CollectorProcess(["--header-timeout", "1"])
        // A byte every 0.2 s for 6 s: a timeout per read would never end it.
        let pieces = Array("POST /v1/logs/decisions HTTP/1.1\r\nX-Slow: abcdefghijklmnopqrstuvwxyz".utf8).map { [$0] }
        let (answer, seconds) = try CollectorClient.raw(pieces, port: collector.port, pause: .milliseconds(200))
        #expect(CollectorClient.status(of: answer) == 408, "\(answer)")
        #expect(answer.contains("the headers did not arrive within 1.0 seconds (--header-timeout)"))
        #expect(seconds > 0.9 && seconds < 3, "answered after \(seconds) s")
        #expect(collector.stop().status == 0)
    }

    @Test func aBodyThatNeverEndsIsCutAtTheBodyTimeout() throws {
        let collector = try CollectorProcess(["--body-timeout", "1"])
        let pieces = [Self.head] + Array(repeating: Array("{\"u".utf8), count: 30)
        let (answer, seconds) = try CollectorClient.raw(pieces, port: collector.port, pause: .milliseconds(200))
        #expect(CollectorClient.status(of: answer) == 408, "\(answer)")
        #expect(answer.contains("the body did not arrive within 1.0 seconds (--body-timeout)"))
        #expect(seconds > 0.9 && seconds < 3, "answered after \(seconds) s")
        let stopped = collector.stop()
        #expect(stopped.output.contains("0 batches"))
    }

    @Test func gzipBombsAreRefusedWhileInflatingAndTheCollectorStaysSmall() throws {
        let collector = try CollectorProcess()
        // 10 MB of zeros (one endless line) and 200 MB of line ends, each under 300 KB gzip'd.
        let zeros = GzipCompression.member([UInt8](repeating: 0, count: 10_000_000))
        let lineEnds = GzipCompression.member([UInt8](repeating: 0x0A, count: 200_000_000))
        #expect(zeros.count < 20_000 && lineEnds.count < 300_000)
        let start = ContinuousClock.now
        let first = try CollectorClient.curl(zeros, to: collector.url())
        let second = try CollectorClient.curl(lineEnds, to: collector.url())
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        #expect(first.status == 413)
        #expect(first.text.contains("line 1 is longer than 65536 bytes"))
        #expect(second.status == 413)
        #expect(second.text.contains("inflates past 16777216 bytes (--max-inflated-bytes)"))
        // Inflating all 200 MB would hold them or take far longer; the cap stops at 16 MiB.
        #expect(seconds < 10, "\(seconds) s")
        let peak = collector.peakResidentBytes
        #expect(peak > 0 && peak < 80 << 20, "peak resident \(peak >> 20) MiB")
        #expect(collector.stop().status == 0)
    }

    @Test func connectionsPastTheCapAreAnswered503UntilOneCloses() throws {
        let collector = try CollectorProcess(["--max-connections", "2"])
        let idle = try [
            CollectorClient.idleConnection(port: collector.port), CollectorClient.idleConnection(port: collector.port),
        ]
        Thread.sleep(forTimeInterval: 0.3)
        let batch = CollectorClient.gzipBatch([#"{"url":"myapp://user/1"}"#])
        let busy = try CollectorClient.curl(batch, to: collector.url())
        #expect(busy.status == 503)
        #expect(busy.text.contains("more than 2 connections (--max-connections)"))
        idle.forEach { close($0) }
        var accepted = try CollectorClient.curl(batch, to: collector.url())
        let deadline = ContinuousClock.now + .seconds(30)  // the collector's thread may wait its turn
        while accepted.status == 503, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            accepted = try CollectorClient.curl(batch, to: collector.url())
        }
        #expect(accepted.status == 204)
        #expect(collector.stop().output.contains("stopped: 1 batches"))
    }

    @Test func aWriteThatFailsIsAnswered503AndLeavesTheFileWhole() throws {
        // The file may not grow past 2 KiB (ulimit -f, 512-byte blocks in sh).
        let collector = try CollectorProcess(shellPrefix: "ulimit -f 4;")
        var accepted: [Int] = []
        var refused: CollectorClient.Answer?
        for batch in 0..<100 {
            let lines = (0..<5).map { #"{"url":"myapp://user/\#(batch)-\#($0)-\#(UUID().uuidString)"}"# }
            let answer = try CollectorClient.curl(CollectorClient.gzipBatch(lines), to: collector.url())
            if answer.status == 204 {
                accepted.append(batch)
            } else {
                refused = answer
                break
            }
        }
        #expect(refused?.status == 503)
        #expect(refused?.text == "the batch could not be written; send it again later")
        #expect(!accepted.isEmpty)
        #expect(collector.stop().status == 0)
        let lines = try CollectorClient.lines(in: collector.folder)
        #expect(lines.count == accepted.count * 5)
    }
}
