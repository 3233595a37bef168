import Foundation
import Junction
import JunctionShipping
import JunctionArtifact
import JunctionCore
import Testing

/// What an accepted update is, and the entries beside the two steps: launch and embedded.
@Suite struct UpdateAcceptanceTests {
    static let acceptance = UpdateAcceptance(policy: ShippingFixture.policy)
    static let now = ShippingFixture.now

    /// The pointer's check did not ask for the artifact.
    struct NotFetched: Error {}

    static func accept(pointer: [UInt8], artifact: [UInt8], with acceptance: UpdateAcceptance = acceptance)
        throws -> AcceptedUpdate
    {
        guard
            case .fetch(let verified) = try acceptance.checkPointer(
                pointer, accepted: DeviceFaultCases.accepted, failed: [], at: now)
        else { throw NotFetched() }
        return try acceptance.acceptArtifact(artifact, for: verified, at: now)
    }

    @Test func keepsTheExactBytesAndDecidesWithTheNewBundle() throws {
        let update = try Self.accept(pointer: DeviceFaultCases.validPointer, artifact: DeviceFaultCases.validArtifact)
        #expect(update.pointer?.bytes == DeviceFaultCases.validPointer)
        #expect(update.artifactBytes == DeviceFaultCases.validArtifact)
        #expect(update.identity == UpdateIdentity(seq: 6, artifact: DeviceFaultCases.validArtifact))
        #expect(update.bundle.directory == "shop@1.4.0")
        #expect(update.decider.decide(RouteRequest("myapp://orders/7")).summary.hasPrefix("gate myapp://login"))
        #expect(update.expires == Date(timeIntervalSince1970: 1_800_000_000 + 7 * 86_400))
        #expect(!update.isStale(at: Self.now) && update.isStale(at: update.expires))
    }

    @Test func acceptsAPointerCreatedExactlyAtTheClockSkew() throws {
        let pointer = ShippingFixture.pointer(
            for: DeviceFaultCases.validArtifact, seq: 6, created: Self.now.addingTimeInterval(300),
            expires: Self.now.addingTimeInterval(86_400))
        #expect(throws: Never.self) { try Self.accept(pointer: pointer, artifact: DeviceFaultCases.validArtifact) }
    }

    @Test func acceptsAnyNewerSeqBeforeAnyUpdateAndAfterFailures() throws {
        let failed: Set = [UpdateIdentity(seq: 6, artifactSHA256: String(repeating: "0", count: 64))]
        let check = try Self.acceptance.checkPointer(
            DeviceFaultCases.validPointer, accepted: nil, failed: failed, at: Self.now)
        guard case .fetch(let verified) = check else {
            Issue.record("\(check)")
            return
        }
        #expect(verified.identity.seq == 6)
    }

    @Test func answersTheKillSwitchWithoutFetchingAfterTheSameChecks() throws {
        let pin = ShippingFixture.pointer(for: DeviceFaultCases.validArtifact, seq: 7, pinEmbedded: true)
        let check = try Self.acceptance.checkPointer(pin, accepted: DeviceFaultCases.accepted, failed: [], at: Self.now)
        guard case .pinEmbedded(let verified) = check else {
            Issue.record("\(check)")
            return
        }
        #expect(verified.bytes == pin && verified.identity.seq == 7)
        // A replayed kill switch is as stale as any old pointer.
        let old = ShippingFixture.pointer(for: DeviceFaultCases.validArtifact, seq: 3, pinEmbedded: true)
        #expect(throws: UpdateRefusal.self) {
            try Self.acceptance.checkPointer(old, accepted: DeviceFaultCases.accepted, failed: [], at: Self.now)
        }
    }

    @Test func refusesAnArtifactOverTheCapBeforeHashingIt() throws {
        guard
            case .fetch(let verified) = try Self.acceptance.checkPointer(
                DeviceFaultCases.validPointer, accepted: nil, failed: [], at: Self.now)
        else { throw NotFetched() }
        var policy = ShippingFixture.policy
        policy.artifactLimits.totalSize = DeviceFaultCases.validArtifact.count - 1
        let capped = UpdateAcceptance(policy: policy)
        // Its last byte flipped: a hash would refuse it, but the cap comes first.
        var bytes = DeviceFaultCases.validArtifact
        bytes[bytes.count - 1] ^= 1
        do {
            _ = try capped.acceptArtifact(bytes, for: verified, at: Self.now)
            Issue.record("accepted")
        } catch {
            #expect(
                error.description
                    == "artifactRefused(oversize): the artifact has \(bytes.count) bytes; this app takes at most \(bytes.count - 1)"
            )
        }
        // And the pointer that announces it is refused before the download.
        #expect(throws: UpdateRefusal.self) {
            try capped.checkPointer(DeviceFaultCases.validPointer, accepted: nil, failed: [], at: Self.now)
        }
    }

    @Test func reverifiesPersistedBytesWithoutTheRatchetOrTheDates() throws {
        let update = try Self.acceptance.reverify(
            pointer: DeviceFaultCases.previousPointer, artifact: DeviceFaultCases.previousArtifact)
        #expect(update.identity == DeviceFaultCases.accepted)
        #expect(update.bundle.routes.route(named: "legacy") != nil)
        #expect(!update.isStale(at: Self.now))
        // Both the pointer (a week) and the artifact (a month) expired: still verified, stale.
        let later = Self.now.addingTimeInterval(60 * 86_400)
        #expect(throws: UpdateRefusal.self) {
            try Self.acceptance.checkPointer(DeviceFaultCases.previousPointer, accepted: nil, failed: [], at: later)
        }
        #expect(update.isStale(at: later))
        do {
            _ = try Self.acceptance.reverify(
                pointer: DeviceFaultCases.validPointer, artifact: DeviceFaultCases.previousArtifact)
            Issue.record("a persisted artifact that is not the pointer's was accepted")
        } catch {
            #expect(error.code == .artifactLengthMismatch || error.code == .artifactHashMismatch)
        }
    }

    /// Skipping the dates skips nothing else: an expired artifact with a bad signature, an
    /// unknown key or a pointer of a stranger's key is refused at launch as on arrival.
    @Test func reverifyingAnExpiredUpdateStillChecksItsSignatures() throws {
        let created = Self.now.addingTimeInterval(-60 * 86_400)
        let expires = Self.now.addingTimeInterval(-86_400)
        let expired = ShippingFixture.artifact(created: created, expires: expires)
        var flipped = expired
        flipped[flipped.count - 1] ^= 0x01
        let forged = ShippingFixture.artifact(created: created, expires: expires, key: ShippingFixture.otherKey)
        let cases: [(pointer: [UInt8], artifact: [UInt8], code: UpdateRefusal.Code)] = [
            (
                ShippingFixture.pointer(for: flipped, seq: 5, created: created, expires: expires), flipped,
                .artifactRefused(.badSignature)
            ),
            (
                ShippingFixture.pointer(for: forged, seq: 5, created: created, expires: expires), forged,
                .artifactRefused(.unknownKey)
            ),
            (
                ShippingFixture.pointer(
                    for: expired, seq: 5, created: created, expires: expires, key: ShippingFixture.otherKey), expired,
                .pointerUnknownKey
            ),
        ]
        for (pointer, artifact, code) in cases {
            #expect(throws: UpdateRefusal.self) { try Self.acceptance.reverify(pointer: pointer, artifact: artifact) }
            do { _ = try Self.acceptance.reverify(pointer: pointer, artifact: artifact) } catch {
                #expect(error.code == code)
            }
        }
        let good = try Self.acceptance.reverify(
            pointer: ShippingFixture.pointer(for: expired, seq: 5, created: created, expires: expires),
            artifact: expired)
        #expect(good.isStale(at: Self.now))
    }

    @Test func reverifiesAPersistedKillSwitchAndRefusesAnOrdinaryPointerAsOne() throws {
        let pin = ShippingFixture.pointer(for: DeviceFaultCases.validArtifact, seq: 7, pinEmbedded: true)
        let verified = try Self.acceptance.reverify(pin: pin)
        #expect(verified.identity == UpdateIdentity(seq: 7, artifact: DeviceFaultCases.validArtifact))
        #expect(
            throws: UpdateRefusal(
                .pointerMalformed,
                "the persisted kill switch \(DeviceFaultCases.accepted) does not pin the embedded bundle: it is not the "
                    + "pointer that was recorded; the embedded bundle is not pinned",
                identity: DeviceFaultCases.accepted)
        ) { try Self.acceptance.reverify(pin: DeviceFaultCases.previousPointer) }
    }

    @Test func acceptsTheEmbeddedArtifactPastItsExpiryAsStale() throws {
        let expired = ShippingFixture.artifact(
            created: Self.now.addingTimeInterval(-60 * 86_400), expires: Self.now.addingTimeInterval(-86_400))
        let update = try Self.acceptance.acceptEmbedded(expired)
        #expect(update.pointer == nil)
        #expect(update.identity == UpdateIdentity(seq: 0, artifact: expired))
        #expect(update.isStale(at: Self.now))
        // Its signature still counts.
        do {
            _ = try Self.acceptance.acceptEmbedded(ShippingFixture.artifact(key: ShippingFixture.otherKey))
            Issue.record("an embedded artifact of an unknown key was accepted")
        } catch {
            #expect(error.code == .artifactRefused(.unknownKey))
        }
    }

    static let outcomes: [(AppInvariant, Bool)] = [
        (AppInvariant(open: "myapp://home", expect: .opens(route: "home")), true),
        (
            AppInvariant(
                open: "myapp://orders/7", context: ["user": ["id": 1]],
                expect: .opens(route: "orders", params: ["id": 7])), true
        ),
        (
            AppInvariant(
                open: "myapp://orders/7", context: ["user": ["id": 1]],
                expect: .opens(route: "orders", params: ["id": 8])), false
        ),
        (AppInvariant(open: "myapp://orders/7", expect: .gated(to: "myapp://login")), true),
        (AppInvariant(open: "myapp://login", source: .push, expect: .rejected), true),
        (AppInvariant(open: "myapp://home", expect: .rejected), false),
        (AppInvariant(open: "myapp://nowhere", expect: .unmatched), true),
        (AppInvariant(open: "myapp://home", expect: .unmatched), false),
        (AppInvariant(open: "myapp://home", expect: .redirected(to: "myapp://home")), false),
        (AppInvariant(open: "myapp://start", expect: .redirected(to: "myapp://home")), true),
        (AppInvariant(open: "myapp://start", expect: .redirected(to: "myapp://login")), false),
        (AppInvariant(open: "https://example.com/help", expect: .handedOver(scheme: "HTTPS")), true),
        (AppInvariant(open: "myapp://home", expect: .handedOver(scheme: "https")), false),
    ]

    @Test(arguments: outcomes)
    func checksEachOutcomeAsARuleTestDoes(invariant: AppInvariant, holds: Bool) throws {
        var policy = ShippingFixture.policy
        policy.invariants = [invariant]
        let result = Result {
            try Self.accept(
                pointer: DeviceFaultCases.validPointer, artifact: DeviceFaultCases.validArtifact,
                with: UpdateAcceptance(policy: policy))
        }
        switch result {
        case .success: #expect(holds)
        case .failure(let error as UpdateRefusal):
            #expect(!holds, "\(error)")
            #expect(error.code == .invariantFailed)
            #expect(error.message.contains("breaks the app's invariant \(invariant.url): expected "))
        case .failure(let error): Issue.record("\(error)")
        }
    }

    @Test func runsTheInvariantsUnderTheAppsInterceptorsButTheBundlesTestsWithout() throws {
        var policy = ShippingFixture.policy
        // It refuses every order: the bundle's "members see their orders" would fail under
        // it, but that test is the bundle's; the invariant that guests are gated still holds.
        policy.interceptors = [
            SwiftInterceptor("no-orders", scope: .route("orders")) { _, _ in .reject(reason: "closed", code: 403) }
        ]
        policy.invariants.append(
            AppInvariant(
                "members' orders are closed", open: "myapp://orders/7", context: ["user": ["id": 1]], expect: .rejected)
        )
        let update = try Self.accept(
            pointer: DeviceFaultCases.validPointer, artifact: DeviceFaultCases.validArtifact,
            with: UpdateAcceptance(policy: policy))
        let decision = update.decider.decide(
            RouteRequest("myapp://orders/7"), context: ContextSnapshot(["user": ["id": 1]]))
        #expect(decision.summary.hasPrefix("rejected (403)"))
    }
}
