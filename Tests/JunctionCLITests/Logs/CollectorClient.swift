import JunctionTooling
import Foundation
import JunctionShipping
import Testing

@testable import JunctionCLI

/// What tests upload with and read back: Debian's curl, a raw socket for what curl will
/// not send, and the corpus's own gzip reader over the folder.
enum CollectorClient {
    /// An answer: the status and the text.
    struct Answer: Equatable {
        var status: Int
        var text: String
    }

    /// Posts `body` with curl and returns the status and the text.
    /// - Parameters:
    ///   - body: The bytes sent (written to a file curl reads).
    ///   - url: Where.
    ///   - gzip: Whether to send `Content-Encoding: gzip`.
    ///   - headers: More headers.
    static func curl(_ body: [UInt8], to url: String, gzip: Bool = true, headers: [String] = []) throws -> Answer {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
        try Data(body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = [
            "-sS", "-w", "\n%{http_code}", "--data-binary", "@\(file.path)", "-H", "Content-Type: application/x-ndjson",
        ]
        if gzip { arguments += ["-H", "Content-Encoding: gzip"] }
        for header in headers { arguments += ["-H", header] }
        let result = try CLIRunner.run(arguments + [url], program: URL(fileURLWithPath: "/usr/bin/curl"))
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let text = lines.dropLast().joined(separator: "\n")
        return Answer(status: Int(lines.last ?? "") ?? 0, text: text.hasSuffix("\n") ? String(text.dropLast()) : text)
    }

    /// Sends `pieces` on a new connection to `port`, `pause` between them, stopping early
    /// when the server answers; then reads until the server closes.
    /// - Returns: What the server sent, and the seconds until its first byte came.
    static func raw(_ pieces: [[UInt8]], port: UInt16, pause: Duration = .zero) throws -> (String, Double) {
        let descriptor = try idleConnection(port: port)
        defer { close(descriptor) }
        let start = ContinuousClock.now
        var answer: [UInt8] = []
        var answered: Double?
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        for piece in pieces {
            let early = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if early > 0 {
                answered = (ContinuousClock.now - start) / .seconds(1)
                answer += buffer[..<early]
                break
            }
            _ = piece.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if pause > .zero { Thread.sleep(forTimeInterval: pause / .seconds(1)) }
        }
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got <= 0 { break }
            if answered == nil { answered = (ContinuousClock.now - start) / .seconds(1) }
            answer += buffer[..<got]
        }
        return (String(decoding: answer, as: UTF8.self), answered ?? -1)
    }

    /// The status of an answer `raw` read (`HTTP/1.1 408 …` is 408), 0 for none.
    static func status(of answer: String) -> Int {
        Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// A connection to `port` that sends nothing, held open until closed.
    static func idleConnection(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        // A collector that never answers fails the test in time instead of holding the
        // whole run: a read or a write that waits this long gives up.
        var limit = timeval(tv_sec: 30, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        return descriptor
    }

    /// `lines` as NDJSON, gzip'd.
    static func gzipBatch(_ lines: [String]) -> [UInt8] {
        GzipCompression.member(Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Every line of every file in `folder` whose name ends `suffix` (sealed files by
    /// default), read with the corpus's gzip reader, in the files' name order.
    static func lines(in folder: String, suffix: String = ".ndjson.gz") throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(suffix) }.sorted()
        var lines: [String] = []
        for name in names {
            let compressed = try Array(Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
            let reader = try GzipBytes(compressed: MemoryBytes(compressed), file: name)
            var bytes: [UInt8] = []
            while true {
                let chunk = try reader.next()
                if chunk.isEmpty { break }
                bytes += chunk
            }
            lines += String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return lines
    }
}
