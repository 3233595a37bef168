import Foundation
import Junction
import JunctionArtifact
import JunctionCore
import JunctionLua

/// `update.activate`: what a device does with a downloaded update before it decides by it —
/// verify the signed artifact, decode its canonical JSON (manifest, 1,000 routes, 100
/// tests), compile its 200 rules, run its tests, and swap it in — for the bundle of
/// ``UpdateBundleGenerator``. Beside it, for where the time goes: `update.decode_routes`
/// (the route table's JSON alone) and `update.compile` (decode and compile, no tests);
/// `bundle.verify` times the verification of the same artifact. Milliseconds per activation.
struct UpdateActivateBenchmark: BenchmarkGroup {
    let name = "update"

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        let names = ["activate", "decode_routes", "compile"]
        guard names.contains(where: { selected("\(name).\($0)") }) else { return [] }
        let (bytes, keyring, source) = try UpdateBundleGenerator.artifact()
        let now = UpdateBundleGenerator.now
        let declared = UpdateBundleGenerator.ruleCount
        /// Everything from bytes to a decider that passed the bundle's tests.
        func activate() -> Decider {
            guard let artifact = try? Artifact(verifying: bytes, keyring: keyring, at: now),
                let bundle = try? Self.bundle(of: artifact), let decider = try? Decider(bundle: bundle)
            else { fatalError("\(name).activate: the artifact stopped activating") }
            return decider
        }
        _ = activate()
        StandardError.print(
            "\(name): an artifact of \(bytes.count) bytes (\(source.routes.routes.count) routes, \(declared) rules, \(source.tests.count) tests)"
        )
        let routesJSON = try! source.routes.canonicalJSON(relativeTo: source.directory)
        let artifact = try! Artifact(verifying: bytes, keyring: keyring, at: now)

        var contenders: [Contender] = []
        func add(_ contender: String, _ body: @escaping () -> Int) {
            guard selected("\(name).\(contender)") else { return }
            contenders.append(
                Contender(name: "\(name).\(contender)", n: bytes.count, operationsPerIteration: 1) { iterations in
                    var sink = 0
                    for _ in 0..<iterations { sink &+= body() }
                    return sink
                })
        }
        add("activate") { activate().routes.routes.count }
        add("decode_routes") {
            guard let table = try? RouteTable(canonicalJSON: routesJSON, directory: "bench") else {
                fatalError("\(name).decode_routes failed")
            }
            return table.routes.count
        }
        add("compile") {
            guard let bundle = try? Self.bundle(of: artifact) else { fatalError("\(name).compile failed") }
            return bundle.routes.routes.count
        }

        let oneEach = Harness(samples: harness.samples, sampleTarget: .microseconds(1), warmUp: harness.warmUp)
        var measurements = oneEach.measure(contenders)
        for index in measurements.indices {
            measurements[index].reportsMilliseconds = true
            let measurement = measurements[index]
            StandardError.print(
                String(
                    format: "  %@: %.3f ms (%.3f–%.3f, %d samples)", measurement.name,
                    measurement.nanosecondsPerOperation / 1e6, measurement.fastest / 1e6, measurement.slowest / 1e6,
                    measurement.samples))
        }
        return measurements
    }

    /// The bundle an artifact carries, decoded and compiled.
    static func bundle(of artifact: Artifact) throws -> RuleBundle {
        func member(_ path: String) -> [UInt8] { Array(artifact.contents(of: path) ?? []) }
        let sources = artifact.header.members.filter { $0.kind == .lua }.map {
            RuleSource(name: $0.path, text: String(decoding: member($0.path), as: UTF8.self))
        }
        return try RuleBundle(
            canonicalManifest: member("manifest.json"), routes: member("routes.json"), tests: member("tests.json"),
            sources: sources, directory: "bench-update@1.0.0")
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = ["\(name): milliseconds per activation of a downloaded update (n: artifact bytes)"]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%10.3f ms", measurement.nanosecondsPerOperation / 1e6))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
