import Foundation
import JunctionArtifact

/// `bundle.verify`: verifying the signed artifact `update.activate` activates — 1,000
/// routes, 200 rules and 100 tests compiled to canonical JSON, and the Lua — the way a
/// device does before loading it: caps, structure, the header, one Ed25519 verification,
/// one SHA-256 pass per member. `bundle.verify_1mb` does the same for a synthetic artifact
/// of about 1 MiB.
struct BundleVerifyBenchmark: BenchmarkGroup {
    let name = "bundle"

    /// Synthetic members: `routes.json` of `routes` entries, `rules / 10` Lua files of ten
    /// rules each, `tests.json` of `tests` entries. Deterministic, so each run verifies the same bytes.
    static func artifact(routes: Int, rules: Int, tests: Int) throws(BenchmarkFailure) -> ([UInt8], Keyring) {
        let key = try! SigningKey(seed: [UInt8](repeating: 42, count: 32))
        let created = Date(timeIntervalSince1970: 1_780_228_800)
        var builder = ArtifactBuilder(
            name: "bench", version: "1", created: created, expires: created.addingTimeInterval(365 * 86_400))
        let routeRows = (0..<routes).map {
            #"{"name":"module\#($0 / 10).page\#($0 % 10)","pattern":"myapp://module\#($0 / 10)/page\#($0 % 10)/:id","target":"page\#($0)","groups":["g\#($0 % 7)"],"exported":true,"description":"generated route \#($0) for the verify benchmark"}"#
        }
        builder.add(
            path: "routes.json", kind: .routes,
            bytes: Array(("{\"routes\":[" + routeRows.joined(separator: ",") + "]}").utf8))
        builder.add(path: "manifest.json", kind: .manifest, bytes: Array(#"{"name":"bench","version":"1"}"#.utf8))
        for file in 0..<(rules / 10) {
            let text = (0..<10).map { rule in
                "interceptor{ name = \"r\(file)_\(rule)\", match = \"myapp://module\(rule)/**\", priority = \(rule),\n  run = function(req)\n    if req.context.user == nil and req.source == \"push\" then return gate(\"myapp://login\") end\n    return nil\n  end }\n"
            }.joined()
            builder.add(path: "rules\(file).lua", kind: .lua, bytes: Array(text.utf8))
        }
        let testRows = (0..<tests).map {
            #"{"name":"test \#($0)","open":"myapp://module\#($0 % 100)/page\#($0 % 10)/\#($0)","context":{"user":"u\#($0)"},"source":"push","expect":{"route":"module\#($0 % 100).page\#($0 % 10)","outcome":"open"}}"#
        }
        builder.add(
            path: "tests.json", kind: .tests,
            bytes: Array(("{\"tests\":[" + testRows.joined(separator: ",") + "]}").utf8))
        do {
            return (try builder.build(signedWith: key), Keyring([key.publicKey]))
        } catch {
            throw BenchmarkFailure("bundle.verify: the artifact does not build: \(error)")
        }
    }

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        let cases = [("verify", (1_000, 200, 100)), ("verify_1mb", (4_000, 700, 400))]
            .filter { selected("\(name).\($0.0)") }
        guard !cases.isEmpty else { return [] }
        var contenders: [Contender] = []
        for (contender, (routes, rules, tests)) in cases {
            // `verify` checks the artifact `update.activate` activates; the larger one is synthetic.
            let (bytes, keyring, now): ([UInt8], Keyring, Date)
            if contender == "verify" {
                let update = try UpdateBundleGenerator.artifact()
                (bytes, keyring, now) = (update.bytes, update.keyring, UpdateBundleGenerator.now)
            } else {
                let synthetic = try Self.artifact(routes: routes, rules: rules, tests: tests)
                (bytes, keyring, now) = (synthetic.0, synthetic.1, Date(timeIntervalSince1970: 1_780_272_000))
            }
            do {
                _ = try Artifact(verifying: bytes, keyring: keyring, at: now)
            } catch {
                throw BenchmarkFailure("\(name).\(contender): the artifact does not verify: \(error)")
            }
            StandardError.print(
                "\(name).\(contender): an artifact of \(bytes.count) bytes (\(routes) routes, \(rules) rules, \(tests) tests)"
            )
            contenders.append(
                Contender(name: "\(name).\(contender)", n: bytes.count, operationsPerIteration: 1) { iterations in
                    var sink = 0
                    for _ in 0..<iterations {
                        guard let artifact = try? Artifact(verifying: bytes, keyring: keyring, at: now) else {
                            fatalError("\(name).\(contender): the artifact stopped verifying")
                        }
                        sink &+= artifact.header.members.count
                    }
                    return sink
                })
        }
        var measurements = harness.measure(contenders)
        for index in measurements.indices { measurements[index].reportsMilliseconds = true }
        return measurements
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = ["\(name): milliseconds per verification of a signed artifact (n: its bytes)"]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%10.3f ms  (%d bytes)", measurement.nanosecondsPerOperation / 1e6, measurement.n))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
