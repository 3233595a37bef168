import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionCore
import JunctionLua

/// `update.activate`: what a device does with a downloaded update before it decides by it —
/// check the signed pointer, verify the signed artifact against it, decode its canonical
/// JSON (manifest, 1,000 routes, 100 tests), compile its 200 rules, run its tests on the
/// device, and swap it into the `ActivePolicy` — through `UpdateAcceptance`, for the bundle of
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
        // The channel's pointer to the artifact, and the device's last accepted update before it.
        let key = try! SigningKey(seed: [UInt8](repeating: 42, count: 32))
        let pointerBytes: [UInt8]
        do {
            pointerBytes = try ChannelPointer(
                channel: "stable", seq: 2, artifactSHA256: UpdateIdentity(seq: 2, artifact: bytes).artifactSHA256,
                artifactLength: bytes.count, created: now.addingTimeInterval(-60),
                expires: now.addingTimeInterval(86_400), keyID: key.keyID
            ).signed(with: key)
        } catch {
            throw BenchmarkFailure("\(name): the pointer does not sign: \(error)")
        }
        let previous = UpdateIdentity(seq: 1, artifactSHA256: String(repeating: "0", count: 64))
        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(keyring: keyring, hostVersion: SemanticVersion(1), channel: "stable"))

        // What the device decides by until the update is in: the bundle it was built from.
        let policy: ActivePolicy
        do {
            policy = ActivePolicy(PolicySnapshot(decider: try Decider(bundle: source), origin: .embedded))
        } catch {
            throw BenchmarkFailure("\(name): the bundle does not make a decider: \(error)")
        }

        /// Everything a device does from the downloaded pointer and artifact to deciding by
        /// it: the pointer's checks, then the artifact's length, hash, signature and members,
        /// decoding, compiling, the bundle's tests on the device, and the swap.
        func activate() -> Decider {
            do {
                guard
                    case .fetch(let verified) = try acceptance.checkPointer(
                        pointerBytes, accepted: previous, failed: [], at: now)
                else { fatalError("\(name).activate: the pointer is not new") }
                let update = try acceptance.acceptArtifact(bytes, for: verified, at: now)
                policy.activate(PolicySnapshot(decider: update.decider, origin: .update, identity: update.identity))
                return policy.current.decider
            } catch {
                fatalError("\(name).activate: the update is refused: \(error)")
            }
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
            guard let bundle = try? RuleBundle(artifact: artifact) else { fatalError("\(name).compile failed") }
            return bundle.routes.routes.count
        }

        let measurements = harness.measureInMilliseconds(contenders)
        if let activate = measurements.first(where: { $0.name == "\(name).activate" }) {
            StandardError.print("  " + target(activate))
        }
        return measurements
    }

    private func target(_ activate: Measurement) -> String {
        let milliseconds = activate.nanosecondsPerOperation / 1e6
        return String(
            format: "target update.activate ≤ 50 ms: %@ (%.3f ms)", milliseconds <= 50 ? "met" : "MISSED", milliseconds)
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = ["\(name): milliseconds per activation of a downloaded update (n: artifact bytes)"]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%10.3f ms", measurement.nanosecondsPerOperation / 1e6))
        }
        if let activate = measurements.first(where: { $0.name == "\(name).activate" }) {
            lines.append("")
            lines.append("  " + target(activate))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
