import ArgumentParser
import Foundation

/// `junction logs serve --dir DIR --listen HOST:PORT`: the embedded collector. It takes
/// gzip NDJSON batches over HTTP and appends them to hourly files, and does nothing else.
struct LogsServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Collect uploaded decision logs and status reports into hourly gzip NDJSON files.",
        discussion: """
            Serves POST /v1/logs/decisions and POST /v1/logs/status: a body of one JSON object \
            a line (Content-Type application/x-ndjson), gzip (Content-Encoding: gzip) or plain, \
            with Content-Length. A batch is answered 204 once it is on disk (fsync). Refusals: \
            400 a line that is not a JSON object (named) or gzip not whole, 401 without the \
            --token-file token, 404 another path, 405 another method, 408 too slow, 411 without \
            Content-Length (chunked is refused), 413 a body, a line or an inflated body past its \
            cap, 415 another encoding or type, 431 headers past their cap, 503 more connections \
            than the cap or a batch that could not be written. One request a connection \
            (Connection: close). Files: DIR/KIND-YYYY-MM-DDTHH.ndjson.gz by UTC hour, sealed \
            (renamed from .open) when the hour has passed or the collector stops; junction diff \
            --urls reads a decisions file as it is. Prints "listening on HOST:PORT" when ready; \
            SIGINT or SIGTERM stops it (exit 0) after the requests under way and seals the \
            files. Exit status 2 when the folder, address or token file cannot be used.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp("The folder the hourly files are written to (made if missing).", valueName: "dir"))
    var dir: String

    @Option(
        name: .long,
        help: ArgumentHelp("The IPv4 address and port to listen on (port 0: any free one).", valueName: "host:port"),
        transform: ListenAddress.init(parsing:))
    var listen: ListenAddress

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("A file holding the bearer token every upload must send.", valueName: "file"))
    var tokenFile: String?

    @Option(
        name: .customLong("max-connections"), help: "Connections served at once; more are answered 503 (default 64).")
    var maximumConnections = CollectorLimits().maximumConnections

    @Option(name: .customLong("max-header-bytes"), help: "The request line and headers, in bytes (default 16384).")
    var maximumHeaderBytes = CollectorLimits().maximumHeaderBytes

    @Option(name: .customLong("max-body-bytes"), help: "A body as sent, in bytes (default 1048576).")
    var maximumBodyBytes = CollectorLimits().maximumBodyBytes

    @Option(name: .customLong("max-inflated-bytes"), help: "A body once inflated, in bytes (default 16777216).")
    var maximumInflatedBytes = CollectorLimits().maximumInflatedBytes

    @Option(name: .customLong("max-line-bytes"), help: "One line, in bytes (default 65536, what junction diff reads).")
    var maximumLineBytes = CollectorLimits().maximumLineBytes

    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp("Seconds the headers may take to arrive (default 10).", valueName: "seconds"),
        transform: SecondsArgument.init(parsing:))
    var headerTimeout = SecondsArgument(seconds: 10)

    @Option(
        name: .customLong("body-timeout"),
        help: ArgumentHelp("Seconds the body may take after them (default 30).", valueName: "seconds"),
        transform: SecondsArgument.init(parsing:))
    var bodyTimeout = SecondsArgument(seconds: 30)

    /// The caps, from the flags.
    var limits: CollectorLimits {
        var limits = CollectorLimits()
        limits.maximumConnections = maximumConnections
        limits.maximumHeaderBytes = maximumHeaderBytes
        limits.maximumBodyBytes = maximumBodyBytes
        limits.maximumInflatedBytes = maximumInflatedBytes
        limits.maximumLineBytes = maximumLineBytes
        limits.headerTimeout = headerTimeout.duration
        limits.bodyTimeout = bodyTimeout.duration
        return limits
    }

    func validate() throws {
        let ranges: [(String, Int, ClosedRange<Int>)] = [
            ("--max-connections", maximumConnections, 1...4_096),
            ("--max-header-bytes", maximumHeaderBytes, 1_024...(1 << 20)),
            ("--max-body-bytes", maximumBodyBytes, 1_024...(1 << 30)),
            ("--max-inflated-bytes", maximumInflatedBytes, 1_024...(1 << 34)),
            ("--max-line-bytes", maximumLineBytes, 64...(1 << 24)),
        ]
        for (flag, value, range) in ranges where !range.contains(value) {
            throw ValidationError("\(flag) \(value): give a number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard headerTimeout.duration > .zero, bodyTimeout.duration > .zero else {
            throw ValidationError("--header-timeout and --body-timeout must be more than 0 seconds")
        }
    }

    func run() throws {
        // A client that goes mid-answer must not end the collector; a file-size limit
        // (ulimit -f) makes a write fail (503) rather than kill it.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        let limits = self.limits
        let server: CollectorServer
        let port: UInt16
        do {
            let token = try tokenFile.map { path throws(CollectorError) in
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw CollectorError("read \(path): cannot be read as text; give the file that holds the token")
                }
                return try BearerToken(fileText: text)
            }
            // One batch as written: the body and a line end's member, or a plain body deflated.
            let largestTear = 2 * limits.maximumBodyBytes + 1_024
            let folder = try LogFolder(
                path: dir, largestTear: largestTear, clock: { Date().timeIntervalSince1970 },
                report: { printError("logs serve: \($0)") })
            let socket = try ListeningSocket(address: listen, backlog: Int32(min(limits.maximumConnections * 2, 1_024)))
            port = socket.port
            server = CollectorServer(socket: socket, folder: folder, limits: limits, token: token)
        } catch {
            printError("logs serve: \(error)")
            throw ExitCode(2)
        }
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { server.stop() }
            source.resume()
            return source
        }
        printLine("listening on \(listen.host):\(port), writing \(dir)")
        let tally = server.run()
        signals.forEach { $0.cancel() }
        let statuses = tally.statuses.keys.sorted().map { "\($0): \(tally.statuses[$0] ?? 0)" }.joined(separator: ", ")
        printLine(
            "stopped: \(tally.batches) batches, \(tally.lines) lines written; answers \(statuses.isEmpty ? "none" : statuses)"
        )
    }

    /// Writes a line to standard output at once: a test or script waits for it.
    private func printLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
