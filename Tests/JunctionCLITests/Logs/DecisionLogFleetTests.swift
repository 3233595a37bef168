import Foundation
import Testing

/// The decision log end to end: a fleet of `junction agent` devices deciding and uploading
/// to `junction logs serve`, a bundle swap mid-way (tonight's change: the order page to H5
/// on 5.3.0 and later), then `junction logs report` counting exactly what the devices said
/// they decided (sampling off), the rollout's reach from their status lines, and
/// `junction diff` run over the collected files as they are.
@Suite struct DecisionLogFleetTests {
    /// A device of the fleet: its install, version and who is signed in.
    struct Device {
        let id: String
        let version: String
        let user: Int?
    }

    static let fleet = [
        Device(id: "device-a", version: "5.4.0", user: 1),
        Device(id: "device-b", version: "5.2.0", user: 2),
        Device(id: "device-c", version: "6.0.0", user: nil),
        Device(id: "device-d", version: "5.3.0", user: 4),
    ]
    static let links = ["myapp://order/AB123456", "myapp://user/42", "myapp://moments/7", "myapp://nowhere/1"]

    /// rules/example with every decision logged (`sample: 1`) under `version`, and
    /// tonight's change when asked.
    static func bundle(in folder: String, version: Int, tonight: Bool) throws -> String {
        let copy = folder + "/v\(version)"
        try FileManager.default.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("rules/example"), to: URL(fileURLWithPath: copy))
        func edit(_ file: String, _ from: String, _ to: String) throws {
            let path = copy + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(from), "\(file) no longer says \(from)")
            try text.replacingOccurrences(of: from, with: to).write(toFile: path, atomically: true, encoding: .utf8)
        }
        try edit("manifest.yaml", "  sample: 0.1 ", "  sample: 1   ")
        // Who is signed in may leave the device, so the diff decides as the devices did.
        try edit("manifest.yaml", "context: [app_version, hour]", "context: [app_version, hour, user.id]")
        try edit("manifest.yaml", "version: 3\n", "version: \(version)\n")
        if tonight {
            try edit(
                "redirects.lua", #"version.compare(ctx.app_version, "5.3.0") == 0"#,
                #"version.compare(ctx.app_version, "5.3.0") >= 0"#)
        }
        return copy
    }

    @Test func theReportCountsWhatTheFleetDecidedAcrossABundleSwapAndDiffReadsTheFiles() throws {
        let folder = try ShippingFixtures.folder()
        let key = try ShippingFixtures.writeKey(in: folder)
        let v1 = try Self.bundle(in: folder, version: 3, tonight: false)
        let v2 = try Self.bundle(in: folder, version: 4, tonight: true)
        for (bundle, name) in [(v1, "v1"), (v2, "v2")] {
            let built = try CLIRunner.run(["bundle", "build", bundle, "--key", key, "-o", "\(folder)/\(name).jbundle"])
            #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
        }
        func publish(_ name: String) throws {
            let published = try CLIRunner.run([
                "bundle", "publish", "\(folder)/\(name).jbundle", "--to", folder + "/site", "--channel", "stable",
                "--key", key,
            ])
            #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        }
        let collector = try CollectorProcess()

        // What the devices print they decided: outcome, route and bundle of each decision.
        var outcomes: [String: Int] = [:]
        var routes: [String: Int] = [:]
        var bundles: [String: Int] = [:]
        var decisions = 0
        func round() throws {
            for device in Self.fleet {
                var arguments = [
                    "agent", "--channel", "file://\(folder)/site/channels/stable.json", "--pubkey", key + ".pub",
                    "--state", "\(folder)/\(device.id)", "--install-id", device.id, "--host-version", device.version,
                    "--once", "--json", "--logs", "http://127.0.0.1:\(collector.port)", "--context",
                    "app_version=\(device.version)",
                ]
                if let user = device.user { arguments += ["--context", "user.id=\(user)"] }
                for link in Self.links { arguments += ["--decide", link] }
                let result = try CLIRunner.run(arguments)
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                let lines = result.stdout.split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
                }
                for line in lines where line["event"] as? String == "decision" {
                    let decision = try #require(line["decision"] as? [String: Any])
                    decisions += 1
                    outcomes[decision["outcome"] as? String ?? "?", default: 0] += 1
                    // The route reached: an open's `route`, else the trace's last match.
                    let steps = decision["trace"] as? [[String: Any]] ?? []
                    let matched = steps.last { $0["stage"] as? String == "match" }?["name"] as? String
                    routes[decision["route"] as? String ?? matched ?? "(none)", default: 0] += 1
                    bundles[decision["bundle"] as? String ?? "(none)", default: 0] += 1
                }
                let uploads = lines.filter { $0["event"] as? String == "uploaded" }
                #expect(uploads.count == 2)
                #expect(uploads.allSatisfy { $0["reason"] == nil && $0["kept"] as? Int == 0 }, "\(uploads)")
            }
        }
        try publish("v1")
        try round()
        // Tonight's change, published while the fleet runs: each device takes it at its next poll.
        try publish("v2")
        try round()
        #expect(collector.stop().status == 0)

        let files = try FileManager.default.contentsOfDirectory(atPath: collector.folder)
            .filter { $0.hasSuffix(".ndjson.gz") }.sorted().map { collector.folder + "/" + $0 }
        let report = try CLIRunner.run(["logs", "report", "--format", "json"] + files)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        func table(_ name: String) -> [String: Int] {
            let counts = (json[name] as? [String: Any])?["counts"] as? [[String: Any]] ?? []
            return Dictionary(
                uniqueKeysWithValues: counts.map { ($0["key"] as? String ?? "", $0["count"] as? Int ?? 0) })
        }
        // 4 devices × 2 runs × (launch + poll) × 4 links.
        #expect(decisions == 64)
        #expect(json["decisions"] as? Int == decisions)
        #expect(table("outcomes") == outcomes)
        #expect(table("routes") == routes)
        #expect(table("bundles") == bundles)
        #expect(json["dropped_on_devices"] as? Int == 0)
        // Every install's last report is seq 2: the swap reached the whole fleet.
        #expect(table("devices_by_seq") == ["epoch 0 seq 2": 4])
        #expect(json["status_lines"] as? Int == 16)

        // Tonight's change over what the devices collected: the order page opens in H5 for
        // signed-in devices on 5.3.0 and later, and nothing else changes.
        // One file an hour; should the test cross an hour, the files one after another are
        // one gzip file still.
        let corpus = folder + "/decisions.ndjson.gz"
        let collected = try files.filter { $0.contains("/decisions-") }.map { try ShippingFixtures.bytes($0) }
        try Data(collected.joined()).write(to: URL(fileURLWithPath: corpus))
        let diff = try CLIRunner.run([
            "diff", "\(folder)/v1.jbundle", "\(folder)/v2.jbundle", "--pubkey", key + ".pub", "--format", "json",
            "--urls", corpus,
        ])
        let changes = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        #expect(changes["requests"] as? Int == decisions, "\(diff.stdout.prefix(2_000))\(diff.stderr)")
        // Only device-a (signed in, 5.4.0) changes: 5.3.0 went to H5 before tonight, 5.2.0
        // stays native, a guest is gated first. Its order link was logged four times, but
        // its first launch ran the embedded bundle, whose log keeps no context: that line
        // is decided for a guest, gated both times. Three change.
        #expect(changes["changed"] as? Int == 3, "\(diff.stdout.prefix(2_000))")
    }
}
