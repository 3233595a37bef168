import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import Testing

/// docs/shipping.md's Swift snippet, kept true: the same calls on the shipping
/// fixture's keys and artifacts, each comment of the tour an `#expect` here.
@Suite struct ReadmeShippingTests {
    @Test func theDeviceSnippetDoesWhatItSays() async throws {
        let opsKey = ShippingFixture.key.publicKey
        let supportDirectory = InstallerFixture.directory()
        defer { InstallerFixture.remove(supportDirectory) }
        // An app's support directory exists; the store makes its own folder inside it.
        try FileManager.default.createDirectory(atPath: supportDirectory, withIntermediateDirectories: true)
        let embeddedArtifact = InstallerFixture.embedded
        let pointerBytes = InstallerFixture.pointer6
        let objects = [InstallerFixture.identity6.artifactSHA256: InstallerFixture.artifact6]
        let now = ShippingFixture.now

        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: Keyring([opsKey]), hostVersion: SemanticVersion(6, 2), channel: "stable",
                invariants: [AppInvariant("home always opens", open: "myapp://home", expect: .opens(route: "home"))]))
        let installer = try BundleInstaller.launch(
            acceptance: acceptance, store: BundleStore(directory: supportDirectory + "/junction"),
            embedded: embeddedArtifact, at: now)
        #expect(installer.policy.current.origin == .embedded)
        let router = await Router(policy: installer.policy)

        let event = await installer.install(pointer: pointerBytes, at: now) { verified in
            let data = try #require(objects[verified.pointer.artifactSHA256])
            #expect(data.count == verified.pointer.artifactLength)
            return data
        }
        #expect(event == .installed(InstallerFixture.identity6))
        #expect("\(event)" == "installed \(InstallerFixture.identity6)")
        #expect("\(await installer.status(at: now))" == "\(InstallerFixture.identity6) from update: ok")
        #expect(await router.decider.bundle?.manifest.version == installer.policy.current.bundle?.manifest.version)
        #expect(await router.policy.current.identity == InstallerFixture.identity6)
    }

    @Test func theUpdaterSnippetDoesWhatItSays() async throws {
        let opsKey = ShippingFixture.key.publicKey
        let supportDirectory = InstallerFixture.directory()
        defer { InstallerFixture.remove(supportDirectory) }
        try FileManager.default.createDirectory(atPath: supportDirectory, withIntermediateDirectories: true)
        let embeddedArtifact = InstallerFixture.embedded
        let host = FakeHost()
        host.publish(artifact: InstallerFixture.artifact6, pointer: InstallerFixture.pointer6)
        let now = ShippingFixture.now

        let store = BundleStore(directory: supportDirectory + "/junction")
        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: Keyring([opsKey]), hostVersion: SemanticVersion(6, 2), channel: "stable",
                installID: try store.installID(),
                invariants: [AppInvariant("home always opens", open: "myapp://home", expect: .opens(route: "home"))]))
        let updater = try BundleUpdater.launch(
            channel: URL(string: "https://cdn.example.com/junction/channels/stable.json")!,
            acceptance: acceptance, store: store, embedded: embeddedArtifact, transport: host, wallClock: { now })
        #expect(updater.policy.current.origin == .embedded)
        let router = await Router(policy: updater.policy)
        await updater.start()
        #expect(updater.configuration.interval == .seconds(15 * 60))

        for await poll in updater.polls {
            #expect(poll.outcome.name == "activated")
            #expect(
                "\(poll)"
                    == "activated \(InstallerFixture.identity6) from update — \(InstallerFixture.identity6) from update: ok"
            )
            break
        }
        #expect(await router.policy.current.identity == InstallerFixture.identity6)
        let again = await updater.checkNow()
        #expect(again.outcome == .unchanged(InstallerFixture.identity6, .notModified))
        await updater.stop()
    }
}
