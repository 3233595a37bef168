public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hostile HTTP host on loopback (`hostile_http_server.py`, Python's own HTTP server):
/// it serves a folder, but answers the channel pointer or the objects with a 10 GiB
/// `Content-Length`, a body that never ends, or a gzip bomb. A test double, where nginx
/// cannot misbehave on purpose; the updater's ordinary tests run against nginx.
public final class HostileHTTPServer: Sendable {
    /// What is attacked.
    public enum Target: String, Sendable, CaseIterable {
        case pointer, object
    }

    /// How.
    public enum Attack: String, Sendable, CaseIterable {
        /// A 10 GiB `Content-Length`, then zeros as fast as they are taken.
        case length
        /// A chunked body that never ends.
        case endless
        /// `Content-Encoding: gzip`: 1 GiB of zeros in about 1 MB.
        case gzip
    }

    /// One attacked connection, as the server saw it end.
    public struct Connection: Sendable, Decodable {
        /// The request's path.
        public var path: String
        /// The body bytes it managed to send before the client went.
        public var sent: Int
        /// The seconds from the request to the end of the connection.
        public var seconds: Double
    }

    /// The loopback port.
    public let port: Int
    private let process: Process
    private let log: String

    /// Starts the server on a free loopback port.
    /// - Parameters:
    ///   - root: The folder served as it is, but for the target.
    ///   - target: What the attack answers.
    ///   - attack: How.
    public init(root: String, target: Target, attack: Attack) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junction-hostile-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        log = folder + "/connections.jsonl"
        let portFile = folder + "/port"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("hostile_http_server.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script, "--root", root, "--target", target.rawValue, "--attack", attack.rawValue, "--log", log,
            "--port-file", portFile,
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
        throw Failure(description: "the hostile server did not listen within 20 s")
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` and `path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The attacked connections that have ended so far.
    public func connections() -> [Connection] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(Connection.self, from: Data($0.utf8))
        }
    }

    /// Stops the server (SIGKILL) and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
