import Foundation
import JunctionShipping
import Testing

@testable import JunctionCLI

/// A `junction logs serve` child process on a loopback port the system picked, writing to
/// a folder of its own.
final class CollectorProcess {
    /// The folder it writes.
    let folder: String
    /// The port it listens on.
    let port: UInt16
    private let process: Process
    private let output: Pipe
    private let errors: Pipe

    /// Starts a collector on `folder` (a new temporary one by default) with `arguments`
    /// added, and waits for its `listening on` line.
    /// - Parameters:
    ///   - folder: The `--dir`.
    ///   - arguments: More flags.
    ///   - shellPrefix: Shell text run before it in the same shell (`ulimit -f 4;`).
    init(folder: String? = nil, _ arguments: [String] = [], shellPrefix: String? = nil) throws {
        self.folder =
            folder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("junction-logs-\(UUID().uuidString)")
            .path
        process = Process()
        let collectorArguments = ["logs", "serve", "--dir", self.folder, "--listen", "127.0.0.1:0"] + arguments
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "\(shellPrefix) exec \"$0\" \"$@\"", CLIRunner.executable.path] + collectorArguments
        } else {
            process.executableURL = CLIRunner.executable
            process.arguments = collectorArguments
        }
        output = Pipe()
        errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var line: [UInt8] = []
        // Its first line, waited for at most a minute: a collector that never says it
        // listens fails the test rather than holding the whole run.
        let deadline = ContinuousClock.now + .seconds(60)
        var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while line.last != 0x0A {
            let left = deadline - .now
            guard left > .zero, poll(&ready, 1, Int32(left / .milliseconds(1))) > 0 else {
                kill(process.processIdentifier, SIGKILL)
                throw CollectorStartFailure(output: String(decoding: line, as: UTF8.self) + " (no line in 60 s)")
            }
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += byte
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.firstMatch(of: /listening on 127\.0\.0\.1:([0-9]+),/), let port = UInt16(match.1) else {
            process.waitUntilExit()
            let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CollectorStartFailure(output: text + errorText)
        }
        self.port = port
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The URL of `kind`'s path.
    func url(_ kind: DecisionLogKind = .decisions) -> String { "http://127.0.0.1:\(port)\(kind.path)" }

    /// The most memory it has held, from `/proc`: `VmHWM`, in bytes.
    var peakResidentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
    }

    /// Stops it with `SIGTERM` and returns its status and what it printed.
    func stop() -> (status: Int32, output: String, errors: String) {
        // SIGTERM again each second until it exits, then SIGKILL after 30 s: a signal sent
        // while the collector starts — its handler set up, but not yet armed by libdispatch,
        // which it arms on a thread of its own — is lost, and a full run hung here waiting.
        process.terminate()
        var tenths = 0
        while process.isRunning, tenths < 300 {
            usleep(100_000)
            tenths += 1
            if tenths % 10 == 0 { process.terminate() }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, Self.drain(output), Self.drain(errors))
    }

    /// Kills it with `SIGKILL`, as a crash would, and returns what it printed to standard error.
    @discardableResult
    func crash() -> String {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return Self.drain(errors)
    }

    /// What an exited collector left in `pipe`. Not `readDataToEndOfFile`: a child another
    /// test started at the same moment can inherit the pipe's write end (Foundation's pipes
    /// are not close-on-exec), and the end of file then waits for that child — one full run
    /// hung so. The collector has exited: what it wrote is in the pipe; read until the end,
    /// or until nothing more comes for 200 ms.
    private static func drain(_ pipe: Pipe) -> String {
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&ready, 1, 200) > 0 {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A collector that did not print its `listening on` line; what it printed instead.
struct CollectorStartFailure: Error, CustomStringConvertible {
    let output: String
    var description: String { "the collector did not start: \(output)" }
}
