import Foundation
import Junction
import JunctionArtifact
import JunctionCore
import JunctionLua
import JunctionShipping
import Logging

/// A bundle as a device holds it at launch: its signed artifact (embedded in the app, and
/// persisted as an accepted update under a signed pointer), the acceptance that took it,
/// and the first URL the app opens — `launch.*` and `memory.policy` for the benchmark
/// bundle (``UpdateBundleGenerator``: 1,000 routes, 200 rules, 100 tests) and for
/// `rules/example`.
struct LaunchFixture {
    /// `bench` or `example`.
    let label: String
    /// The artifact's bytes.
    let artifact: [UInt8]
    /// The channel pointer that announced it, signed.
    let pointer: [UInt8]
    /// The update it is: seq 2.
    let identity: UpdateIdentity
    /// What the device holds updates to.
    let acceptance: UpdateAcceptance
    /// The bundle it was built from.
    let source: RuleBundle
    /// The URL opened first, its source, and the page target it opens.
    let firstURL: String
    let firstSource: RequestSource
    let firstTarget: String

    /// When launches happen: an hour after the artifacts were built.
    static let now = UpdateBundleGenerator.now

    /// The two fixtures.
    static func all() throws(BenchmarkFailure) -> [LaunchFixture] {
        let (benchBytes, benchKeyring, benchSource) = try UpdateBundleGenerator.artifact()
        let bench = try LaunchFixture(
            label: "bench", artifact: benchBytes, keyring: benchKeyring, source: benchSource,
            candidates: [("myapp://module0/user/7", .internal), ("myapp://module0/home", .internal)])
        let directory = FileManager.default.currentDirectoryPath + "/rules/example"
        let exampleSource: RuleBundle
        let exampleBytes: [UInt8]
        let key = try! SigningKey(seed: [UInt8](repeating: 42, count: 32))
        do {
            exampleSource = try RuleBundle.load(directory: directory)
            let parts = try exampleSource.canonicalJSON()
            let created = now.addingTimeInterval(-3_600)
            var builder = ArtifactBuilder(
                name: exampleSource.manifest.name, version: exampleSource.manifest.version.description,
                created: created, expires: created.addingTimeInterval(86_400),
                minimumHostVersion: exampleSource.manifest.minimumHostVersion?.description)
            builder.add(path: "manifest.json", kind: .manifest, bytes: parts.manifest)
            builder.add(path: "routes.json", kind: .routes, bytes: parts.routes)
            builder.add(path: "tests.json", kind: .tests, bytes: parts.tests)
            for file in exampleSource.sources { builder.add(path: file.name, kind: .lua, bytes: Array(file.text.utf8)) }
            exampleBytes = try builder.build(signedWith: key)
        } catch {
            throw BenchmarkFailure("launch: run from the repository's root: rules/example does not build: \(error)")
        }
        let example = try LaunchFixture(
            label: "example", artifact: exampleBytes, keyring: Keyring([key.publicKey]), source: exampleSource,
            candidates: [("myapp://user/42", .internal), ("myapp://home", .internal)])
        return [bench, example]
    }

    private init(
        label: String, artifact: [UInt8], keyring: Keyring, source: RuleBundle,
        candidates: [(url: String, source: RequestSource)]
    ) throws(BenchmarkFailure) {
        self.label = label
        self.artifact = artifact
        self.source = source
        identity = UpdateIdentity(seq: 2, artifact: artifact)
        let key = try! SigningKey(seed: [UInt8](repeating: 42, count: 32))
        do {
            pointer = try ChannelPointer(
                channel: "stable", seq: 2, artifactSHA256: identity.artifactSHA256, artifactLength: artifact.count,
                created: Self.now.addingTimeInterval(-60), expires: Self.now.addingTimeInterval(86_400),
                keyID: key.keyID
            ).signed(with: key)
        } catch {
            throw BenchmarkFailure("launch: the pointer does not sign: \(error)")
        }
        acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: keyring, hostVersion: SemanticVersion(99), channel: "stable", ruleLogger: Self.silent,
                selfTestLogger: Self.silent, stampKey: [UInt8](repeating: 0x5A, count: 32)))
        // The first URL the app opens: the first candidate that opens a page.
        let decider: Decider
        do { decider = try Decider(bundle: source) } catch {
            throw BenchmarkFailure("launch: \(label) does not make a decider: \(error)")
        }
        for candidate in candidates {
            let decision = decider.decide(RouteRequest(candidate.url, source: candidate.source), context: .empty)
            if case .open = decision.outcome, let route = decision.match?.route, !route.target.isEmpty {
                (firstURL, firstSource, firstTarget) = (candidate.url, candidate.source, route.target)
                return
            }
        }
        throw BenchmarkFailure("launch: no URL of \(label) opens a page")
    }

    /// Rules' output during a benchmark goes nowhere.
    static let silent = Logger(label: "junction.bench.silent") { _ in SwiftLogNoOpLogHandler() }

    /// A store under a fresh temporary folder holding this update as current, accepted.
    func persistedStore() throws(BenchmarkFailure) -> BundleStore {
        let store = emptyStore()
        do { try store.commit(StoredUpdate(identity: identity, pointer: pointer, artifact: artifact)) } catch {
            throw BenchmarkFailure("launch: the update is not persisted: \(error)")
        }
        return store
    }

    /// A store under a fresh temporary folder that holds nothing: the first launch.
    func emptyStore() -> BundleStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junction-launch-\(UUID())").path
        return BundleStore(directory: folder, logger: Self.silent)
    }

    /// Removes a store's folder.
    static func remove(_ store: BundleStore) {
        try? FileManager.default.removeItem(atPath: store.directory)
    }

    /// Launches from `store`, the artifact embedded, and makes the first decision.
    /// - Returns: The installer and the decision.
    func launch(from store: BundleStore) -> (installer: BundleInstaller, decision: Decision) {
        let installer: BundleInstaller
        do {
            installer = try BundleInstaller.launch(
                acceptance: acceptance, store: store, embedded: artifact, at: Self.now, logger: Self.silent)
        } catch {
            fatalError("launch.\(label): the embedded artifact is refused: \(error)")
        }
        let decision = installer.policy.current.decider.decide(
            RouteRequest(firstURL, source: firstSource), context: .empty)
        return (installer, decision)
    }
}
