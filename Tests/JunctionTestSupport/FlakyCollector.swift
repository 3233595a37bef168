public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A collector that fails on purpose (`flaky_collector.py`, Python's own HTTP server): each
/// POST gets the next answer of its script — a status (with `Retry-After`), a connection
/// reset half-way through the body, or silence — then `204`. A test double for what
/// `junction logs serve` cannot do when told; the uploader's ordinary tests run against
/// the real collector.
public final class FlakyCollector: Sendable {
    /// One answer of the script.
    public enum Step: Sendable, CustomStringConvertible {
        /// Read the body, answer the status, with `Retry-After` seconds if given.
        case status(Int, retryAfter: Int? = nil)
        /// Read half the body and reset the connection.
        case reset
        /// Read the body and answer nothing.
        case silent

        /// The step as the script writes it: `500/3`, `reset`, `silent`.
        public var description: String {
            switch self {
            case .status(let status, let retryAfter?): "\(status)/\(retryAfter)"
            case .status(let status, nil): "\(status)"
            case .reset: "reset"
            case .silent: "silent"
            }
        }
    }

    /// The loopback port.
    public let port: Int
    private let process: Process
    private let folder: String

    /// Starts the collector on a free loopback port.
    /// - Parameter script: The answers, in order; `204` after them.
    public init(_ script: [Step]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("junction-flaky-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let portFile = folder + "/port"
        let program = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("flaky_collector.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", program, "--script", script.map(\.description).joined(separator: ","), "--out",
            folder + "/out", "--log", folder + "/requests.jsonl", "--port-file", portFile,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let started = Date()
        while Date().timeIntervalSince(started) < 20 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text) {
                self.port = port
                return
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw Failure(description: "the flaky collector did not listen within 20 s")
    }

    deinit {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The bodies answered `2xx`, in order, as they came (gzip).
    public func acceptedBodies() -> [[UInt8]] {
        var bodies: [[UInt8]] = []
        while let data = FileManager.default.contents(atPath: folder + "/out/\(bodies.count).gz") {
            bodies.append(Array(data))
        }
        return bodies
    }

    /// The answers given so far, in order (`500/3`, `reset`, `204`).
    public func answers() -> [String] {
        guard let text = try? String(contentsOfFile: folder + "/requests.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["answer"] as? String
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
