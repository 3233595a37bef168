import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import JunctionCore

/// The installer's world: the app's embedded artifact (shop 1.0.0), update seq 5 (the
/// previous bundle, which alone routes `myapp://legacy`) and update seq 6 (the next one),
/// a store in a fresh directory, and a fetch that serves given bytes and counts its calls.
enum InstallerFixture {
    static let acceptance = UpdateAcceptance(policy: ShippingFixture.policy)
    static let now = ShippingFixture.now
    static let embedded = ShippingFixture.artifact(version: "1.0.0")
    static let artifact5 = DeviceFaultCases.previousArtifact
    static let pointer5 = DeviceFaultCases.previousPointer
    static let artifact6 = DeviceFaultCases.validArtifact
    static let pointer6 = DeviceFaultCases.validPointer
    static let embeddedIdentity = UpdateIdentity(seq: 0, artifact: embedded)
    static let identity5 = UpdateIdentity(seq: 5, artifact: artifact5)
    static let identity6 = UpdateIdentity(seq: 6, artifact: artifact6)

    /// A directory for one test's store, not yet created; removed by ``remove(_:)``.
    static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("junction-installer-\(UUID().uuidString)").path
    }

    static func remove(_ directory: String) { try? FileManager.default.removeItem(atPath: directory) }

    /// An installer launched on the store in `directory`.
    static func launch(
        _ directory: String, at time: Date = now, whenStale: StaleBundlePolicy = .keepDeciding,
        acceptance: UpdateAcceptance = acceptance, log: CapturedLog = CapturedLog()
    ) throws -> BundleInstaller {
        try BundleInstaller.launch(
            acceptance: acceptance, store: BundleStore(directory: directory), embedded: embedded,
            whenStale: whenStale, at: time, logger: log.logger)
    }

    /// Whether the policy decides under the previous bundle (seq 5): only it routes `myapp://legacy`.
    static func decidesUnderSeq5(_ policy: ActivePolicy) -> Bool {
        policy.decide(RouteRequest("myapp://legacy")).match?.route.name == "legacy"
    }

    /// Serves `bytes` for any pointer, counting the calls.
    final class Server: Sendable {
        let bytes: [UInt8]
        private let calls = Locked(0)

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var count: Int { calls.withLock { $0 } }

        var fetch: @Sendable (VerifiedPointer) async throws -> [UInt8] {
            { [self] _ in
                calls.withLock { $0 += 1 }
                return bytes
            }
        }
    }
}
