import Dispatch
import Foundation
import JunctionShipping

/// `logs.serve`: `junction logs serve` taking a fleet's uploads — the release binary (the
/// one `scripts/bench` builds, `JUNCTION_CLI`) on loopback, 16 devices at once, each a
/// ``DecisionLogUploader`` sending 10,000 decision lines (about 300 bytes a line, 160,000
/// lines in all; a quarter with `--quick`) in gzip batches of about 500 lines through the
/// platform's HTTP transport. Time per line from the first POST to the last 204 (each given
/// only once its batch was written and flushed to disk), lines per second, and the
/// collector's peak memory. The uploaders' gzip runs on the same two cores as the collector:
/// this is a fleet on one machine, not the collector alone. The collector's own count of
/// lines written must equal the lines sent.
struct LogsServeBenchmark: BenchmarkGroup {
    let name = "logs"

    static let uploaders = 16
    static let linesPerBatch = 500

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        guard selected("\(name).serve") else { return [] }
        guard let binary = ProcessInfo.processInfo.environment["JUNCTION_CLI"],
            FileManager.default.isExecutableFile(atPath: binary)
        else {
            throw BenchmarkFailure("\(name): set JUNCTION_CLI to a release junction binary (scripts/bench does)")
        }
        let quick = harness.samples <= 5
        let linesEach = quick ? 2_500 : 10_000
        let lines = Self.uploaders * linesEach
        var seconds: [Double] = []
        var peaks: [Int] = []
        for _ in 0..<(quick ? 1 : 3) {
            let collector = try Collector(binary: binary)
            let elapsed = try Self.upload(linesEach: linesEach, port: collector.port)
            peaks.append(collector.peakResidentBytes)
            let written = try collector.stop()
            guard written == lines else {
                throw BenchmarkFailure("\(name).serve: the collector wrote \(written) lines of \(lines) sent")
            }
            seconds.append(elapsed)
        }
        let perLine = seconds.map { $0 * 1e9 / Double(lines) }.sorted()
        StandardError.print(
            String(
                format: "  logs.serve: %.0f lines/s, %d uploaders, collector peak %.1f MiB",
                1e9 / perLine[perLine.count / 2], Self.uploaders, Double(peaks.max() ?? 0) / 1_048_576))
        return [
            Measurement(
                name: "\(name).serve", n: Self.uploaders, nanosecondsPerOperation: perLine[perLine.count / 2],
                fastest: perLine.first!, slowest: perLine.last!, sampleNanoseconds: perLine, operationsPerSample: lines,
                checksum: peaks.max() ?? 0)
        ]
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = [
            "\(name): junction logs serve taking gzip batches of about \(Self.linesPerBatch) lines (n: uploaders at once)"
        ]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(
                        format: "%10.0f ns/line %12.0f lines/s   collector peak %.1f MiB",
                        measurement.nanosecondsPerOperation, 1e9 / measurement.nanosecondsPerOperation,
                        Double(measurement.checksum) / 1_048_576))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A decision line as a device writes it.
    private static func line(uploader: Int, index: Int) -> String {
        let id = (uploader &* 1_000_003 &+ index &* 7_919) % 1_000_000
        return #"{"app_version":"6.1.0","bundle":"example@3","context":{"app_version":"6.1.0","hour":21},"#
            + #""decision":{"outcome":"open","route":"user.profile","rule":"route check-id (interceptors.lua:13)"},"#
            + #""kind":"decision","source":"push","time":"2026-11-28T21:00:00Z","url":"myapp://user/\#(id)?tab=likes"}"#
    }

    /// Each uploader's lines recorded, then every uploader's pass at once; returns the
    /// seconds from the first POST to the last answer.
    private static func upload(linesEach: Int, port: Int) throws(BenchmarkFailure) -> Double {
        var uploaders: [DecisionLogUploader] = []
        for uploader in 0..<Self.uploaders {
            var configuration: DecisionLogUploaderConfiguration
            do {
                configuration = try DecisionLogUploaderConfiguration(
                    collector: URL(string: "http://127.0.0.1:\(port)")!)
            } catch { throw BenchmarkFailure("logs.serve: \(error)") }
            configuration.maximumBatchBytes = linesPerBatch * 300
            let log = DecisionLog(limits: DecisionLog.Limits(maximumLines: linesEach, maximumBytes: 64 << 20))
            for index in 0..<linesEach { log.append(line(uploader: uploader, index: index)) }
            uploaders.append(DecisionLogUploader(configuration: configuration, decisions: log))
        }
        let failures = Failures()
        let done = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        Task.detached { [uploaders] in
            await withTaskGroup(of: Void.self) { group in
                for uploader in uploaders {
                    group.addTask {
                        // A pass makes at most 64 POSTs: go on until the buffer is empty.
                        while uploader.decisions.counts.lines > 0 {
                            let pass = await uploader.flush()
                            if let failure = pass.failure {
                                failures.add("\(failure)")
                                return
                            }
                        }
                    }
                }
            }
            done.signal()
        }
        done.wait()
        let elapsed = ContinuousClock.now - start
        if let failure = failures.first { throw BenchmarkFailure("logs.serve: an upload failed: \(failure)") }
        let (whole, fraction) = elapsed.components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// The first upload failure, from any uploader.
    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []

        func add(_ message: String) { lock.withLock { messages.append(message) } }
        var first: String? { lock.withLock { messages.first } }
    }

    /// A `junction logs serve` child process on a loopback port it picked.
    private final class Collector {
        let port: Int
        private let process = Process()
        private let output = Pipe()
        private let folder: String

        init(binary: String) throws(BenchmarkFailure) {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("junction-bench-logs-\(UUID())").path
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["logs", "serve", "--dir", folder, "--listen", "127.0.0.1:0"]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { throw BenchmarkFailure("logs.serve: cannot run \(binary): \(error)") }
            var line: [UInt8] = []
            while line.last != 0x0A {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line += byte
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let match = text.firstMatch(of: /127\.0\.0\.1:([0-9]+)/), let port = Int(match.1) else {
                throw BenchmarkFailure("logs.serve: the collector did not start: \(text)")
            }
            self.port = port
        }

        /// `VmHWM` of the collector, in bytes.
        var peakResidentBytes: Int {
            let status =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
        }

        /// Stops it and returns the lines it says it wrote.
        func stop() throws(BenchmarkFailure) -> Int {
            process.terminate()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: folder)
            guard let match = printed.firstMatch(of: /batches, ([0-9]+) lines written/), let lines = Int(match.1) else {
                throw BenchmarkFailure("logs.serve: the collector's last line says no count: \(printed.suffix(300))")
            }
            return lines
        }
    }
}
