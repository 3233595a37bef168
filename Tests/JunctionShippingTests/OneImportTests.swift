import Foundation
import JunctionShipping
import Testing

/// What a device uses comes with one import: the router, the keyring, the installer, and
/// the embedded artifact as the `Data` an app reads from its bundle.
@MainActor
@Suite struct OneImportTests {
    @Test func aDeviceLaunchesFromEmbeddedDataWithOneImport() throws {
        let bytes = try ExampleBundleAcceptanceTests.exampleArtifact()
        let keyring: Keyring = ShippingFixture.keyring
        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(keyring: keyring, hostVersion: SemanticVersion(6), channel: "stable"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("one-import-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let installer = try BundleInstaller.launch(
            acceptance: acceptance, store: BundleStore(directory: directory), embedded: Data(bytes))
        let router = Router(policy: installer.policy)
        #expect(router.decider.bundle?.manifest.name == "example")
        #expect(try acceptance.acceptEmbedded(Data(bytes)).identity.seq == 0)
    }
}
