import Foundation
import JunctionShipping
import Testing

/// A device's status line says which bundle is active, from where and in what condition,
/// what was refused and why — and names the install only by a hash.
@Suite struct DeviceStatusLineTests {
    static let identity = UpdateIdentity(epoch: 1, seq: 7, artifactSHA256: String(repeating: "a", count: 64))
    static let status = UpdateStatus(
        active: identity, origin: .update, expires: Date(timeIntervalSince1970: 1_800_000_000), condition: .ok)
    static let installID = "6F1C2A9E-install-secret"

    @Test(arguments: [
        (
            UpdateEvent.installed(identity),
            #"{"app_version":"6.1.0","epoch":1,"event":"installed","install":"sha256:"#
        ),
        (
            UpdateEvent.skipped(
                .update, UpdateRefusal(.artifactHashMismatch, "the artifact's SHA-256 is not the pointer's")),
            #"{"app_version":"6.1.0","code":"artifactHashMismatch","epoch":1,"event":"skipped","install":"sha256:"#
        ),
        (
            UpdateEvent.notInRollout(identity, percent: 20),
            #"{"app_version":"6.1.0","epoch":1,"event":"not_in_rollout","install":"sha256:"#
        ),
    ])
    func saysWhatHappenedToWhichBundle(event: UpdateEvent, prefix: String) throws {
        let line = try #require(
            DeviceStatusLine.make(
                event, status: Self.status, appVersion: "6.1.0", installID: Self.installID,
                time: Date(timeIntervalSince1970: 1_795_000_000)))
        #expect(line.hasPrefix(prefix), "\(line)")
        #expect(line.contains(#""kind":"status""#))
        #expect(line.contains(#""origin":"update","#) && line.contains(#""seq":7,"status":"ok""#))
        #expect(!line.contains(Self.installID))
        #expect(line.contains("\"install\":\"" + DecisionLogLine.hash(Self.installID) + "\""))
    }
}
