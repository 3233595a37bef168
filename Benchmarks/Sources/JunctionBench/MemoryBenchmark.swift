import CMallocStats
import Foundation
import Junction
import JunctionCore
import JunctionLua

/// `memory.policy`: the bytes a loaded policy holds — what `BundleInstaller.launch` keeps
/// deciding after the first decision: the route table and its trie, the decider, the bundle
/// (manifest, tests, rule sources, declarations) and its engine pool with the Lua state the
/// first decision used — counted by the C allocator (glibc's `mallinfo2`: bytes handed out
/// and not given back), not estimated. For the benchmark bundle (n = 1,000 routes) and
/// `rules/example`, with a breakdown: each part built alone, its bytes counted the same way.
/// `memory.policy_reopened` is the same update re-opened at a later launch under its
/// acceptance stamp, its route table compiled only where the first URL needed it and its
/// tests not decoded: a total, without a breakdown.
///
/// A memory figure is one number, not a time: the median of ``rounds`` builds, each
/// measured while the built thing is alive, everything else it made freed.
///
/// glibc's per-thread cache (tcache) keeps freed small blocks counted as in use, so an
/// allocation it serves would not show: the figures are taken in a child process of this
/// benchmark with the cache off (`GLIBC_TUNABLES=glibc.malloc.tcache_count=0`), which
/// prints them as JSON lines for this one to read.
struct MemoryBenchmark: BenchmarkGroup {
    let name = "memory"
    /// Builds per figure; the median is reported.
    static let rounds = 5
    /// The tunable that turns glibc's per-thread cache off.
    static let tunable = "glibc.malloc.tcache_count=0"

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        guard selected("\(name).policy") else { return [] }
        guard jb_allocated_bytes() > 0 else {
            StandardError.print("\(name): the C allocator does not count its bytes here (not glibc): skipped")
            return []
        }
        guard ProcessInfo.processInfo.environment["GLIBC_TUNABLES"]?.contains(Self.tunable) == true else {
            return try measureInChild()
        }
        var measurements: [Measurement] = []
        for fixture in try LaunchFixture.all() {
            let routesJSON: [UInt8]
            do { routesJSON = try fixture.source.routes.canonicalJSON(relativeTo: fixture.source.directory) } catch {
                throw BenchmarkFailure("\(name): \(fixture.label)'s routes do not encode: \(error)")
            }
            let request = RouteRequest(fixture.firstURL, source: fixture.firstSource)
            let policy = Self.median {
                Self.held {
                    let update = try! fixture.acceptance.reverify(pointer: fixture.pointer, artifact: fixture.artifact)
                    let decider = update.decider
                    _ = decider.decide(request, context: .empty)
                    return decider
                }
            }
            let table = Self.median { Self.held { try! RouteTable(canonicalJSON: routesJSON, directory: "memory") } }
            let routes = fixture.source.routes
            let decider = Self.median { Self.held { try! Decider(routes: routes) } }
            let sources = fixture.source.sources
            let engine = Self.median { Self.held { try! RuleEngine(sources: sources) } }
            let rest = policy - table - decider - engine
            // The same update re-opened at a later launch under its acceptance stamp: its
            // route table skimmed, compiled only where the first URL needed it.
            let store = try fixture.persistedStore()
            defer { LaunchFixture.remove(store) }
            _ = fixture.launch(from: store)  // verifies in full and stamps
            guard let stored = store.load().current, stored.acceptance != nil else {
                throw BenchmarkFailure("\(name): \(fixture.label)'s update is not stamped by its first launch")
            }
            let reopened = Self.median {
                Self.held {
                    let update = try! fixture.acceptance.reverify(stored)
                    _ = update.decider.decide(request, context: .empty)
                    return update.decider
                }
            }
            let n = fixture.source.routes.routes.count
            // The re-opened policy's parts are not built alone (its table is deferred, its
            // tests not decoded): its total only.
            for (suffix, total, parts) in [
                ("policy", policy, Array(zip(Self.partNames, [table, decider, engine, rest]))),
                ("policy_reopened", reopened, []),
            ] {
                var measurement = Measurement(
                    name: "\(name).\(suffix)", n: n, nanosecondsPerOperation: 0, fastest: 0, slowest: 0,
                    sampleNanoseconds: [], operationsPerSample: 0, checksum: total)
                measurement.bytes = (total, parts)
                StandardError.print(
                    "  \(name).\(suffix) \(fixture.label): \(Self.kib(total)) ("
                        + parts.map { "\($0.0) \(Self.kib($0.1))" }.joined(separator: ", ") + ")")
                measurements.append(measurement)
            }
        }
        return measurements
    }

    /// Runs this benchmark again in a child process with the per-thread cache off, and
    /// reads its JSON lines.
    private func measureInChild() throws(BenchmarkFailure) -> [Measurement] {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--json", "--filter", "\(name).policy"]  // and policy_reopened
        var environment = ProcessInfo.processInfo.environment
        environment["GLIBC_TUNABLES"] = Self.tunable
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        do { try child.run() } catch { throw BenchmarkFailure("\(name): the child does not start: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchmarkFailure("\(name): the child exited \(child.terminationStatus)")
        }
        var measurements: [Measurement] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let lineName = object["name"] as? String, let n = object["n"] as? Int,
                let bytes = object["bytes"] as? Int,
                let breakdown = object["breakdown"] as? [String: Int]
            else { throw BenchmarkFailure("\(name): the child printed \(line)") }
            let parts = Self.partNames.compactMap { part in breakdown[part].map { (part, $0) } }
            var measurement = Measurement(
                name: lineName, n: n, nanosecondsPerOperation: 0, fastest: 0, slowest: 0, sampleNanoseconds: [],
                operationsPerSample: 0, checksum: bytes)
            measurement.bytes = (bytes, parts)
            measurements.append(measurement)
        }
        return measurements
    }

    /// The parts of the breakdown, in the order they are shown.
    static let partNames = ["route_table", "decider", "rule_engine", "bundle_and_rest"]

    /// The bytes `build`'s result holds while it is alive, after everything else `build`
    /// made is freed.
    private static func held<Value>(_ build: () -> Value) -> Int {
        let before = jb_allocated_bytes()
        let value = build()
        let after = jb_allocated_bytes()
        withExtendedLifetime(value) {}
        return Int(after) - Int(before)
    }

    /// The median of ``rounds`` counts.
    private static func median(_ count: () -> Int) -> Int {
        let counts = (0..<rounds).map { _ in count() }.sorted()
        return counts[counts.count / 2]
    }

    static func kib(_ bytes: Int) -> String { String(format: "%.1f KiB", Double(bytes) / 1_024) }

    func report(_ measurements: [Measurement]) -> String {
        var lines = ["\(name): bytes a loaded policy holds after its first decision, by the C allocator (n: routes)"]
        for measurement in measurements {
            guard let (total, parts) = measurement.bytes else { continue }
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%6d %12@", measurement.n, Self.kib(total)))
            for (part, bytes) in parts {
                lines.append("      " + part.padding(toLength: 24, withPad: " ", startingAt: 0) + Self.kib(bytes))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
