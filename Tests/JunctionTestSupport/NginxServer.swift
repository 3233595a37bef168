public import Foundation
import JunctionCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Debian's nginx on a free loopback port, serving a folder the test owns: the static host
/// the updater is tested against. The config is written into a temporary prefix (pid, logs
/// and temp paths inside it), so it runs as root or not and touches nothing of the system's.
///
/// Besides `/` (the folder, with nginx's `ETag`s and `304`s), it serves the folder again
/// under `/slow/` (headers, then about one byte a second) and answers `/e404/…`, `/e500/…`
/// and `/e503/…` (with `Retry-After: 7`) with those statuses.
public final class NginxServer: Sendable {
    /// Why the server could not be run.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with nginx's error log when it ran.
        public let description: String
    }

    /// The folder served.
    public let root: String
    /// The loopback port.
    public let port: Int
    private let prefix: String
    private let process: Locked<Process?>

    /// Starts nginx serving `root`.
    /// - Throws: ``Failure`` when nginx is not installed (run `scripts/setup`) or does not
    ///   start listening within 10 seconds (the message has its error log).
    public init(root: String) throws {
        self.root = root
        prefix =
            FileManager.default.temporaryDirectory.appendingPathComponent("junction-nginx-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
        // A port found free can be taken before nginx binds it; then another is tried.
        var candidate: Int
        var launched: Result<Process, Failure>
        var attempts = 0
        repeat {
            candidate = try Self.freePort()
            try Self.writeConfig(prefix: prefix, root: root, port: candidate)
            launched = Self.launch(prefix: prefix, port: candidate)
            attempts += 1
        } while attempts < 5 && (try? launched.get()) == nil
        port = candidate
        process = Locked(try? launched.get())
        if case .failure(let failure) = launched { throw failure }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: prefix)
    }

    /// Every request served so far, oldest first: `GET /channels/stable.json 304 180`
    /// (method, path, status, bytes sent).
    public var requests: [String] {
        ((try? String(contentsOfFile: prefix + "/logs/access.log", encoding: .utf8)) ?? "").split(separator: "\n")
            .map(String.init)
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Starts nginx again on the same port, after ``stop()``.
    /// - Throws: ``Failure`` with nginx's error log when it does not listen within 10 s.
    public func start() throws {
        let process = try Self.launch(prefix: prefix, port: port).get()
        self.process.withLock { $0 = process }
    }

    /// Runs nginx and waits until it listens; the failure, when it does not.
    private static func launch(prefix: String, port: Int) -> Result<Process, Failure> {
        guard let nginx = executable else {
            return .failure(Failure(description: "nginx not found (looked in /usr/sbin and PATH): run scripts/setup"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/logs/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return .failure(Failure(description: "nginx could not be run: \(error)")) }
        for _ in 0..<200 {
            if accepts(port) && process.isRunning { return .success(process) }
            if !process.isRunning { break }
            usleep(50_000)
        }
        end(process)
        let log = (try? String(contentsOfFile: prefix + "/logs/error.log", encoding: .utf8)) ?? ""
        return .failure(
            Failure(description: "nginx did not listen on 127.0.0.1:\(port) within 10 s; its error log:\n\(log)"))
    }

    /// Stops nginx and waits for it; the port refuses connections afterwards. SIGKILL: a
    /// child of this test process may inherit a signal mask that blocks SIGTERM.
    public func stop() {
        guard let process = process.withLock({ $0.take() }) else { return }
        Self.end(process)
    }

    private static func end(_ process: Process) {
        guard process.isRunning else { return }
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static var executable: String? {
        let paths =
            ["/usr/sbin/nginx"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/nginx" }
        return paths.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func writeConfig(prefix: String, root: String, port: Int) throws {
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/logs/error.log warn;
            events { worker_connections 256; }
            http {
              log_format junction '$request_method $uri $status $bytes_sent';
              access_log \(prefix)/logs/access.log junction;
              client_body_temp_path \(prefix)/body;
              proxy_temp_path \(prefix)/proxy;
              fastcgi_temp_path \(prefix)/fastcgi;
              uwsgi_temp_path \(prefix)/uwsgi;
              scgi_temp_path \(prefix)/scgi;
              types { application/json json; application/octet-stream jbundle; }
              server {
                listen 127.0.0.1:\(port);
                root \(root);
                location /channels/ { add_header Cache-Control "no-cache"; }
                location /objects/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
                location /slow/ {
                  alias \(root)/;
                  sendfile off; output_buffers 1 1; postpone_output 0;
                  limit_rate_after 400; limit_rate 1;
                }
                location /to-file/ { return 302 file:///etc/passwd; }
                location /to-data/ { return 302 "data:text/plain,hello"; }
                location /to-channel/ { return 302 /channels/stable.json; }
                location /loop/ { return 302 /loop/x; }
                location /gzip/ { add_header Content-Encoding gzip; return 200 "not really gzip"; }
                location /e404/ { return 404; }
                location /e500/ { return 500; }
                location /e503/ { add_header Retry-After 7 always; return 503; }
              }
            }
            """
        try config.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
    }

    /// A port nothing listens on now: bound to 0, read back, closed.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
