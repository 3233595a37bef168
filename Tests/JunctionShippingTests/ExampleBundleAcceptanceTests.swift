import JunctionAuthoring
import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionCore
import JunctionTestSupport
import Testing

/// `rules/example` as a device gets it: built into an artifact, accepted with its own
/// tests run on the device, and deciding as the folder it was built from does.
@Suite struct ExampleBundleAcceptanceTests {
    static let folder = CLIPaths.repositoryRoot + "/rules/example"

    /// `rules/example` built into an artifact signed by the fixture's key.
    static func exampleArtifact() throws -> [UInt8] {
        try artifact(of: try RuleBundle.load(directory: folder))
    }

    static func artifact(of bundle: RuleBundle, withTests: Bool = true) throws -> [UInt8] {
        let parts = try bundle.canonicalJSON()
        var builder = ArtifactBuilder(
            name: bundle.manifest.name, version: bundle.manifest.version.description,
            created: ShippingFixture.now.addingTimeInterval(-60),
            expires: ShippingFixture.now.addingTimeInterval(86_400),
            minimumHostVersion: bundle.manifest.minimumHostVersion?.description)
        builder.add(path: "manifest.json", kind: .manifest, bytes: parts.manifest)
        builder.add(path: "routes.json", kind: .routes, bytes: parts.routes)
        if withTests { builder.add(path: "tests.json", kind: .tests, bytes: parts.tests) }
        for source in bundle.sources { builder.add(path: source.name, kind: .lua, bytes: Array(source.text.utf8)) }
        return try builder.build(signedWith: ShippingFixture.key)
    }

    @Test func acceptsTheExampleAndDecidesAsItsFolderDoes() throws {
        let loaded = try RuleBundle.load(directory: Self.folder)
        let bytes = try Self.artifact(of: loaded)
        let pointer = ShippingFixture.pointer(for: bytes, seq: 1)
        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: ShippingFixture.keyring, hostVersion: SemanticVersion(6), channel: "stable"))
        guard
            case .fetch(let verified) = try acceptance.checkPointer(
                pointer, accepted: nil, failed: [], at: ShippingFixture.now)
        else {
            Issue.record("not fetched")
            return
        }
        let update = try acceptance.acceptArtifact(bytes, for: verified, at: ShippingFixture.now)
        #expect(update.bundle.directory == "example@3")
        #expect(update.bundle.tests.count == loaded.tests.count && loaded.tests.count >= 20)
        let folder = try Decider(bundle: loaded)
        for (request, context) in DecisionSamples.requests(for: loaded) {
            let (a, b) = (folder.decide(request, context: context), update.decider.decide(request, context: context))
            #expect(DecisionSamples.fingerprint(a) == DecisionSamples.fingerprint(b))
        }
    }

    @Test func refusesTheExampleOnAHostOlderThanItsManifestAsks() throws {
        let bytes = try Self.artifact(of: try RuleBundle.load(directory: Self.folder))
        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(keyring: ShippingFixture.keyring, hostVersion: SemanticVersion(4, 9), channel: nil)
        )
        do {
            _ = try acceptance.acceptEmbedded(bytes)
            Issue.record("accepted")
        } catch {
            #expect(
                error.description
                    == "hostTooOld: example@3 needs a host of version 5.0.0 or later (the artifact's minimum_host_version); this app is 4.9.0: it is for a newer release of the app, which will take it"
            )
        }
    }

    @Test func acceptsAnArtifactWithoutTestsButStillHoldsItToTheInvariants() throws {
        let bundle = ShippingFixture.loadBundle()
        let bytes = try Self.artifact(of: bundle, withTests: false)
        let update = try UpdateAcceptance(policy: ShippingFixture.policy).acceptEmbedded(bytes)
        #expect(update.bundle.tests.isEmpty)
        var policy = ShippingFixture.policy
        policy.invariants.append(AppInvariant(open: "myapp://home", expect: .unmatched))
        #expect(throws: UpdateRefusal.self) { try UpdateAcceptance(policy: policy).acceptEmbedded(bytes) }
    }
}
