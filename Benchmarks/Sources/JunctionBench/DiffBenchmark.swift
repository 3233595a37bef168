import Foundation

/// `diff.urls`: `junction diff` as an operations engineer runs it — the release binary, the
/// example bundle against tonight's change (live rooms sent to H5, the checkout v2 route
/// removed), over a generated corpus of 1,000,000 URLs (100,000 with `--quick`): wall time
/// per URL, and URLs per second. Its peer, `diff.process_per_url`, is what the engineer did
/// before: one `junction eval` process per URL and bundle, over 20 URLs. The binary is the
/// one `scripts/bench` builds (`JUNCTION_CLI`); the bundles are the repository's.
struct DiffBenchmark: BenchmarkGroup {
    let name = "diff"

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        let wanted = ["urls", "process_per_url"].filter { selected("\(name).\($0)") }
        guard !wanted.isEmpty else { return [] }
        guard let binary = ProcessInfo.processInfo.environment["JUNCTION_CLI"],
            FileManager.default.isExecutableFile(atPath: binary)
        else {
            throw BenchmarkFailure("\(name): set JUNCTION_CLI to a release junction binary (scripts/bench does)")
        }
        let example = FileManager.default.currentDirectoryPath + "/rules/example"
        guard FileManager.default.fileExists(atPath: example + "/manifest.yaml") else {
            throw BenchmarkFailure("\(name): run from the repository's root: no rules/example here")
        }
        let quick = harness.samples <= 5
        let count = quick ? 100_000 : 1_000_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junction-bench-diff-\(getpid())")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (tonight, corpus) = try prepare(in: folder, example: example, count: count)

        var measurements: [Measurement] = []
        if wanted.contains("urls") {
            let runs = quick ? 1 : 3
            var seconds: [Double] = []
            var checksum = 0
            for _ in 0..<runs {
                let (elapsed, output) = try Self.time(
                    binary, ["diff", example, tonight, "--urls", corpus, "--format", "json", "--no-progress"])
                let changed = Self.number("changed", in: output)
                guard Self.number("requests", in: output) == count, let changed, changed > 0 else {
                    throw BenchmarkFailure("\(name).urls: the diff did not decide the corpus: \(output.prefix(300))")
                }
                checksum &+= changed
                seconds.append(elapsed)
            }
            measurements.append(Self.measurement("\(name).urls", n: count, seconds: seconds, per: count, checksum))
        }
        if wanted.contains("process_per_url") {
            let urls = (0..<20).map { Self.url($0 &* 2_654_435_761) }
            var seconds: [Double] = []
            for url in urls {
                var total = 0.0
                for bundle in [example, tonight] {
                    total += try Self.time(binary, ["eval", url, "--bundle", bundle, "--json"], allowFailure: true).0
                }
                seconds.append(total)
            }
            measurements.append(
                Self.measurement("\(name).process_per_url", n: urls.count, seconds: seconds, per: 1, urls.count))
        }
        return measurements
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = ["\(name): junction diff of the example bundle and tonight's change, per URL (n: URLs)"]
        for measurement in measurements {
            let microseconds = measurement.nanosecondsPerOperation / 1_000
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%12.2f µs/URL %12.0f URLs/s", microseconds, 1e6 / microseconds))
        }
        if let urls = measurements.first(where: { $0.name == "\(name).urls" }) {
            let total = urls.nanosecondsPerOperation * Double(urls.n) / 1e9
            lines.append("")
            lines.append(
                String(
                    format: "  %d URLs × 2 bundles in %.1f s (target for 1,000,000: ≤ 15 s)", urls.n, total))
            if let peer = measurements.first(where: { $0.name == "\(name).process_per_url" }) {
                lines.append(
                    String(
                        format: "  a process per URL costs %.0f× as much",
                        peer.nanosecondsPerOperation / urls.nanosecondsPerOperation))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Tonight's bundle (a copy of the example with two changes) and the corpus file.
    private func prepare(in folder: String, example: String, count: Int) throws(BenchmarkFailure) -> (String, String) {
        let tonight = folder + "/tonight"
        let corpus = folder + "/urls.txt"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: example, toPath: tonight)
            let routes = tonight + "/routes.yaml"
            let table = try String(contentsOfFile: routes, encoding: .utf8)
            try table.replacingOccurrences(
                of: "  - name: checkout.v2\n    pattern: myapp://checkout/v2\n    groups: [login]\n", with: ""
            ).write(toFile: routes, atomically: true, encoding: .utf8)
            guard let redirects = FileHandle(forWritingAtPath: tonight + "/redirects.lua") else {
                throw BenchmarkFailure("\(name): cannot write tonight's redirects")
            }
            redirects.seekToEndOfFile()
            redirects.write(
                Data("\nredirect { from = \"myapp://live/:room\", to = \"https://m.example.com/live/{room}\" }\n".utf8))
            try redirects.close()
            var text = ""
            text.reserveCapacity(count * 28)
            for index in 0..<count { text += Self.url(index &* 2_654_435_761) + "\n" }
            try text.write(toFile: corpus, atomically: true, encoding: .utf8)
        } catch let failure as BenchmarkFailure {
            throw failure
        } catch {
            throw BenchmarkFailure("\(name): cannot prepare the corpus: \(error)")
        }
        return (tonight, corpus)
    }

    /// The URL of a seed: a mix of what deep-link logs hold — pages, gated pages, rooms,
    /// links to newer versions, H5 and action URLs.
    private static func url(_ seed: Int) -> String {
        let number = (seed >> 8) % 1_000_000
        switch seed % 13 {
        case 0: return "myapp://home"
        case 1: return "myapp://user/\(number)"
        case 2: return "myapp://user/n\(number)"
        case 3: return "myapp://checkout/v2"
        case 4: return "myapp://live/\(number)"
        case 5: return "myapp://order/AB\(String(format: "%06d", number))"
        case 6: return "myapp://moments/\(number)"
        case 7: return "myapp://feed/\(number)?ref=push"
        case 8: return "myapp://video/edit/\(number)"
        case 9: return "myapp://nothing/\(number)"
        case 10: return "https://help.example.com/articles/\(number)"
        case 11: return "myapp://action/experiment/e\(number)"
        default: return "myapp://checkout?coupon=\(number)"
        }
    }

    /// Runs `binary` and returns its wall time in seconds and its standard output.
    private static func time(_ binary: String, _ arguments: [String], allowFailure: Bool = false)
        throws(BenchmarkFailure) -> (Double, String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        do { try process.run() } catch { throw BenchmarkFailure("cannot run \(binary): \(error)") }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        if !allowFailure && process.terminationStatus != 0 {
            throw BenchmarkFailure("\(binary) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        let (whole, fraction) = elapsed.components
        return (Double(whole) + Double(fraction) / 1e18, String(decoding: output, as: UTF8.self))
    }

    private static func number(_ key: String, in json: String) -> Int? {
        guard let match = json.firstMatch(of: try! Regex("\"\(key)\": ([0-9]+)")) else { return nil }
        return Int(match.output[1].substring ?? "")
    }

    /// A measurement from wall times of whole runs of `per` operations each.
    private static func measurement(_ name: String, n: Int, seconds: [Double], per: Int, _ checksum: Int) -> Measurement
    {
        let perOperation = seconds.map { $0 * 1e9 / Double(per) }
        let sorted = perOperation.sorted()
        return Measurement(
            name: name, n: n, nanosecondsPerOperation: sorted[sorted.count / 2], fastest: sorted.first!,
            slowest: sorted.last!, sampleNanoseconds: perOperation, operationsPerSample: per, checksum: checksum)
    }
}
