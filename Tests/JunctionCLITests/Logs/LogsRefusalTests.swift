import Foundation
import JunctionShipping
import Testing

@testable import JunctionCLI

/// Every refusal of `junction logs serve`, with its exact status and what it says, and
/// nothing written for any of them.
@Suite struct LogsRefusalTests {
    /// A request and the answer it must get.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let request: [UInt8]
        let status: Int
        let says: String
        var testDescription: String { name }

        init(_ name: String, _ head: String, body: [UInt8] = [], _ status: Int, _ says: String) {
            self.name = name
            request = Array(head.replacingOccurrences(of: "\n", with: "\r\n").utf8) + body
            self.status = status
            self.says = says
        }

        /// A POST to the decisions path with `body` and its length.
        static func post(
            _ name: String, _ body: [UInt8], gzip: Bool = false, _ status: Int, _ says: String
        ) -> Case {
            let encoding = gzip ? "Content-Encoding: gzip\n" : ""
            return Case(
                name, "POST /v1/logs/decisions HTTP/1.1\nHost: x\n\(encoding)Content-Length: \(body.count)\n\n",
                body: body, status, says)
        }
    }

    /// The caps every case runs under: small, so each is passed with little traffic.
    static let caps = [
        "--max-body-bytes", "4096", "--max-line-bytes", "128", "--max-header-bytes", "1024",
        "--max-inflated-bytes", "8192",
    ]

    static let cases: [Case] = {
        let good = Array("{\"url\":\"myapp://user/1\"}\n".utf8)
        let member = GzipCompression.member(good)
        var damaged = member
        damaged[damaged.count - 8] ^= 0xFF  // the CRC-32: the data inflates, and does not check
        return [
            Case("another path", "POST /v1/other HTTP/1.1\nContent-Length: 0\n\n", 404, "/v1/other: no such path"),
            Case("another method", "GET /v1/logs/decisions HTTP/1.1\n\n", 405, "only POST is served"),
            Case("no Content-Length", "POST /v1/logs/decisions HTTP/1.1\n\n", 411, "needs Content-Length"),
            Case(
                "chunked", "POST /v1/logs/decisions HTTP/1.1\nTransfer-Encoding: chunked\n\n5\r\nhello\r\n0\r\n\r\n",
                411, "chunked bodies are refused"),
            Case(
                "two lengths", "POST /v1/logs/decisions HTTP/1.1\nContent-Length: 1\nContent-Length: 2\n\n", 400,
                "two Content-Length headers that differ"),
            Case("not HTTP", "HELLO\n\n", 400, "the request line is not METHOD /path HTTP/1.1"),
            Case(
                "a body past its cap", "POST /v1/logs/decisions HTTP/1.1\nContent-Length: 4097\n\n", 413,
                "more than 4096 (--max-body-bytes)"),
            Case(
                "headers past their cap",
                "POST /v1/logs/decisions HTTP/1.1\nX-Padding: \(String(repeating: "a", count: 1_100))\n\n", 431,
                "longer than 1024 bytes (--max-header-bytes)"),
            Case(
                "another encoding", "POST /v1/logs/decisions HTTP/1.1\nContent-Encoding: br\nContent-Length: 0\n\n",
                415, "Content-Encoding br is not read"),
            Case(
                "another type", "POST /v1/logs/decisions HTTP/1.1\nContent-Type: text/csv\nContent-Length: 0\n\n",
                415, "Content-Type text/csv is not read"),
            .post("a line that is not JSON", good + Array("{\"url\":\n".utf8), 400, "line 2: not a JSON object"),
            .post("a line that is an array", Array("[1]\n".utf8) + good, 400, "line 1: not a JSON object"),
            .post(
                "a line past its cap", Array("{\"a\":\"\(String(repeating: "x", count: 200))\"}\n".utf8), 413,
                "line 1 is longer than 128 bytes"),
            .post("gzip cut short", Array(member.dropLast(4)), gzip: true, 400, "the gzip body is cut short"),
            .post("gzip damaged", damaged, gzip: true, 400, "the gzip body is damaged"),
            .post("gzip followed by other bytes", member + [0, 0, 0], gzip: true, 400, "the gzip body is damaged"),
            .post(
                "gzip inflating past its cap", GzipCompression.member(Array(repeating: 0x0A, count: 100_000)),
                gzip: true, 413, "inflates past 8192 bytes (--max-inflated-bytes)"),
        ]
    }()

    @Test(arguments: cases) func refusesWithItsStatusAndWritesNothing(_ refusal: Case) throws {
        let collector = try CollectorProcess(Self.caps)
        let (answer, _) = try CollectorClient.raw([refusal.request], port: collector.port)
        #expect(CollectorClient.status(of: answer) == refusal.status, "\(answer)")
        #expect(answer.contains(refusal.says), "\(answer)")
        #expect(answer.contains("Connection: close"))
        let stopped = collector.stop()
        #expect(stopped.output.contains("stopped: 0 batches, 0 lines written; answers \(refusal.status): 1"))
        #expect(try CollectorClient.lines(in: collector.folder, suffix: ".gz").isEmpty)
    }

    @Test func aBearerTokenIsRequiredWhenATokenFileIsGiven() throws {
        let tokenFile = try CLIRunner.folder(["token": "s3cret-token\n"]) + "/token"
        let collector = try CollectorProcess(["--token-file", tokenFile])
        let batch = CollectorClient.gzipBatch([#"{"url":"myapp://user/1"}"#])
        let answers = try [
            CollectorClient.curl(batch, to: collector.url()),
            CollectorClient.curl(batch, to: collector.url(), headers: ["Authorization: Bearer s3cret-toke"]),
            CollectorClient.curl(batch, to: collector.url(), headers: ["Authorization: Bearer s3cret-token2"]),
            CollectorClient.curl(batch, to: collector.url(), headers: ["Authorization: Basic s3cret-token"]),
            CollectorClient.curl(batch, to: collector.url(), headers: ["Authorization: Bearer s3cret-token"]),
        ]
        #expect(answers.map(\.status) == [401, 401, 401, 401, 204])
        #expect(answers[0].text == "an upload needs Authorization: Bearer TOKEN")
        #expect(answers[1].text == "the bearer token is not the collector's")
        #expect(collector.stop().output.contains("stopped: 1 batches, 1 lines written"))
    }

    @Test(
        arguments: [
            ("shorter", "Bearer abc", false), ("longer", "Bearer abcdx", false), ("one byte off", "Bearer abce", false),
            ("the scheme in any case", "bEaReR abcd", true), ("no scheme", "abcd", false), ("none", nil, false),
            ("exact", "Bearer abcd", true),
        ] as [(String, String?, Bool)])
    func theTokenCompareTakesOnlyTheExactToken(_ name: String, _ header: String?, _ accepted: Bool) throws {
        #expect(try BearerToken(fileText: " abcd\n").isPresented(by: header) == accepted, "\(name)")
    }

    @Test(arguments: ["", "  \n", "two words"])
    func aTokenFileWithoutOneTokenIsRefused(_ text: String) {
        #expect(throws: CollectorError.self) { try BearerToken(fileText: text) }
    }
}
