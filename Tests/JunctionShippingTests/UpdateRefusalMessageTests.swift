import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import Testing

/// Each reason of the acceptance pipeline, with the full message a person reads.
@Suite struct UpdateRefusalMessageTests {
    static let acceptance = UpdateAcceptance(policy: ShippingFixture.policy)
    static let key = ShippingFixture.key.keyID
    static let otherKey = ShippingFixture.otherKey.keyID
    static let next = ShippingFixture.hash(DeviceFaultCases.validArtifact)
    static let previous = ShippingFixture.hash(DeviceFaultCases.previousArtifact)
    static let length = DeviceFaultCases.validArtifact.count
    static let stays = "the active bundle stays — "

    static let messages: [(String, String)] = [
        (
            "pointer unsigned",
            "pointerUnsigned: the channel pointer was refused (unsigned): the pointer has no signature; sign it with junction bundle publish; \(stays)publish the channel again, signed with a key in the app's keyring"
        ),
        (
            "pointer signed by an unknown key",
            "pointerUnknownKey: the channel pointer was refused (unknownKey): the pointer is signed by key \(otherKey), which is not in the keyring (\(key)); \(stays)publish the channel again, signed with a key in the app's keyring"
        ),
        (
            "pointer naming the app's key, signed by another",
            "pointerBadSignature: the channel pointer was refused (badSignature): the signature does not verify with key \(key); \(stays)publish the channel again, signed with a key in the app's keyring"
        ),
        (
            "pointer of format 2",
            "pointerUnsupportedFormat: the channel pointer was refused (unsupportedFormat): the pointer's format is 2; this reader knows format 1; \(stays)publish it in a format this app reads, or update the app"
        ),
        (
            "pointer of 16,385 bytes",
            "pointerOversize: the channel pointer was refused (oversize): the pointer is 16385 bytes; a pointer is at most 16384; \(stays)serve channels/NAME.json exactly as junction bundle publish wrote it"
        ),
        (
            "pointer with a space",
            "pointerMalformed: the channel pointer was refused (malformed): not in canonical form (sorted keys, no whitespace), so not as it was signed; \(stays)serve channels/NAME.json exactly as junction bundle publish wrote it"
        ),
        (
            "a pointer of another channel, with a higher seq",
            "wrongChannel: the pointer is signed for channel \"beta\"; this device follows \"stable\": serve each channel's own pointer at channels/stable.json"
        ),
        (
            "a lower seq (a replay)",
            "staleSeq: the pointer's seq 4 is lower than seq 5, the update last accepted: a replay of an older pointer, or a mirror serving one; to roll back, publish the older artifact under a new, higher seq"
        ),
        (
            "the accepted seq naming another artifact",
            "conflictingSeq: the pointer's seq 5 is the seq of the update last accepted, but it names artifact \(next) instead of \(previous): one seq names one artifact; publish the new artifact under a higher seq"
        ),
        (
            "an update refused before",
            "previouslyFailed: seq 6 (sha256 \(next.prefix(4))…\(next.suffix(4))) was refused on this device before and is not tried again; publish a fixed artifact under a higher seq"
        ),
        (
            "a pointer that expired when the update started",
            "pointerExpired: the pointer expired at 2027-01-15T08:00:00Z; the update started at 2027-01-15T08:00:00Z: the channel was not republished in time, or a mirror serves an old pointer; publish the channel again"
        ),
        (
            "a pointer dated beyond the clock skew",
            "pointerFromFuture: the pointer was created at 2027-01-15T08:05:01Z, later than 2027-01-15T08:00:00Z plus the allowed clock skew of 300 s: check the device's clock and the publisher's"
        ),
        (
            "a pointer announcing 16 MiB and a byte",
            "artifactRefused(oversize): the pointer announces an artifact of 16777217 bytes; this app takes at most 16777216, so it is not fetched"
        ),
        (
            "a pointer announcing another length",
            "artifactLengthMismatch: the artifact has \(length) bytes; the pointer announces \(length + 1): a cut or wrong download; fetch objects/\(next).jbundle again"
        ),
        (
            "a pointer announcing another artifact of the same length",
            "artifactHashMismatch: the artifact's SHA-256 is \(next); the pointer announces \(String(repeating: "ab", count: 32)): not the artifact the pointer names (a corrupt download or a swapped object); fetch it again"
        ),
        (
            "artifact signed by an unknown key",
            "artifactRefused(unknownKey): the artifact was refused: unknownKey: the artifact is signed by key \(otherKey), which is not in the keyring (\(key))"
        ),
        (
            "artifact naming the app's key, signed by another",
            "artifactRefused(badSignature): the artifact was refused: badSignature: the signature at byte \(length - 64) does not verify with key \(key)"
        ),
        (
            "artifact expired",
            "artifactExpired: the artifact expired at 2027-01-15T08:00:00Z; it is 2027-01-15T08:00:00Z: build and publish a fresh artifact (junction bundle build --expires)"
        ),
        (
            "artifact with a traversal path",
            "artifactRefused(badPath): the artifact was refused: badPath: member path \"../evil.lua\" has a .. segment"
        ),
        (
            "a too-new minimum host version",
            "hostTooOld: shop@1.4.0 needs a host of version 6.1.0 or later (the artifact's minimum_host_version); this app is 6.0.0: it is for a newer release of the app, which will take it"
        ),
        (
            "a too-new minimum host version in the manifest",
            "hostTooOld: shop@1.4.0 needs a host of version 7.0.0 or later (the manifest's minimum_host_version); this app is 6.0.0: it is for a newer release of the app, which will take it"
        ),
        (
            "a Lua compile error",
            "bundleInvalid: shop@1.4.0 does not load: shop@1.4.0/policies.lua:2:1: error: 'end' expected (to close 'function' at line 1) near <eof> [syntax]; fix it, run junction check and junction test, and build it again"
        ),
        (
            "a rule that exceeds its budget while loading",
            "bundleInvalid: shop@1.4.0 does not load: shop@1.4.0/policies.lua:1:1: error: instruction budget of 1000000 exceeded; the rule runs too long (a loop that never ends?) [instructionBudget]; fix it, run junction check and junction test, and build it again"
        ),
        (
            "a rule file that is not UTF-8",
            "bundleInvalid: shop@1.4.0 does not load: shop@1.4.0/policies.lua:1:1: error: not UTF-8 text; a rule file is Lua source text; fix it, run junction check and junction test, and build it again"
        ),
        (
            "a failing self-test",
            "selfTestFailed: shop@1.4.0: its test \"guests log in first\" (shop@1.4.0/tests/orders.yaml:2) fails on this device: expected gate myapp://login, got open orders {\"id\":7}; run junction test on the bundle, fix it and publish it again"
        ),
        (
            "a failing invariant",
            "invariantFailed: shop@1.4.0 breaks the app's invariant \"home always opens\" (myapp://home): expected route home, got rejected (403) by close-home: closed; a bundle cannot take away what the app registers: fix its routes or rules"
        ),
    ]

    @Test(arguments: messages)
    func refusesWithTheFullMessage(name: String, description: String) throws {
        let fault = try #require(DeviceFaultCases.named.first { $0.name == name })
        guard case .refused(let refusal) = fault.run(Self.acceptance) else {
            Issue.record("\(name) was not refused")
            return
        }
        #expect(refusal.description == description)
    }

    @Test func remembersOnlyWhatTheSignedUpdateItselfIs() throws {
        var remembered: [String: Bool] = [:]
        for fault in DeviceFaultCases.named {
            if case .refused(let refusal) = fault.run(Self.acceptance) { remembered[fault.name] = refusal.isRemembered }
        }
        // Before the pointer verifies there is nothing to remember; a download that is not
        // the announced artifact is fetched again; a bundle for a newer host waits for it.
        for name in [
            "pointer unsigned", "a lower seq (a replay)", "a pointer announcing another length",
            "a pointer announcing another artifact of the same length", "a too-new minimum host version",
        ] {
            #expect(remembered[name] == false, "\(name)")
        }
        for name in [
            "artifact signed by an unknown key", "artifact expired", "a Lua compile error", "a failing self-test",
            "a failing invariant",
        ] {
            #expect(remembered[name] == true, "\(name)")
        }
    }

    @Test func listsTheFirstFiveDiagnosticsOfABundleThatDoesNotLoad() throws {
        var members = ShippingFixture.next
        for index in 0..<7 { members.lua["broken\(index).lua"] = [0xFF] }
        let artifact = ShippingFixture.artifact(members)
        let fault = DeviceFaultCases.refused("seven bad files", artifact, .bundleInvalid)
        guard case .refused(let refusal) = fault.run(Self.acceptance) else {
            Issue.record("not refused")
            return
        }
        #expect(refusal.diagnostics.count == 7)
        #expect(
            refusal.message.hasSuffix(" (and 2 more); fix it, run junction check and junction test, and build it again")
        )
        #expect(refusal.message.components(separatedBy: "not UTF-8 text").count == 6)
    }
}
