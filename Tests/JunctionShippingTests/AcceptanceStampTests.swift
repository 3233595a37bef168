import Foundation
import Junction
import JunctionCore
import JunctionShipping
import Testing

/// An update accepted on the device is stamped in the store, so a launch verifies it
/// again without running its self-tests and the app's invariants; anything that makes the
/// stamp not this policy's stamp of these bytes — an edited state, another app, other
/// bytes — is verified in full, as before, and what fails falls back as it always did.
///
/// Whether the checks ran is seen through a Swift interceptor of the app's: the invariants
/// run under the decider with the app's interceptors, so it counts their decisions.
@Suite struct AcceptanceStampTests {
    /// Counts the decisions the app's interceptor sees.
    final class Counter: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }
        func reset() { count.withLock { $0 = 0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    /// The fixture's acceptance with a counting interceptor (and, when given, other
    /// invariants or another app version).
    static func acceptance(
        _ counter: Counter, invariants: [AppInvariant] = ShippingFixture.invariants,
        hostVersion: SemanticVersion = SemanticVersion(6)
    ) -> UpdateAcceptance {
        UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: ShippingFixture.keyring, hostVersion: hostVersion, channel: "stable", invariants: invariants,
                interceptors: [
                    SwiftInterceptor("count", scope: .all) { _, _ in
                        counter.add()
                        return .continue
                    }
                ]))
    }

    /// A store holding seq 5, installed (and stamped) by an installer of `acceptance`.
    static func installedSeq5(_ directory: String, acceptance: UpdateAcceptance) async throws {
        let installer = try InstallerFixture.launch(directory, acceptance: acceptance)
        let event = await installer.install(
            pointer: InstallerFixture.pointer5, at: InstallerFixture.now,
            fetch: InstallerFixture.Server(InstallerFixture.artifact5).fetch)
        #expect(event == .installed(InstallerFixture.identity5))
    }

    /// The store's state file, decoded.
    static func state(_ directory: String) throws -> [String: RuleValue] {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/state.json")))
        guard case .table(let fields) = try CanonicalJSON.decode(bytes) else { throw CocoaError(.fileReadCorruptFile) }
        return fields
    }

    /// The current update's stamp in the state file.
    static func currentStamp(_ directory: String) throws -> String? {
        guard case .table(let current)? = try state(directory)["current"],
            case .string(let stamp)? = current["accepted"]
        else { return nil }
        return stamp
    }

    /// Rewrites the state file with the current update's stamp set to `stamp` (removed for
    /// `nil`), in the canonical form the store reads.
    static func setCurrentStamp(_ directory: String, to stamp: String?) throws {
        var fields = try state(directory)
        guard case .table(var current)? = fields["current"] else { throw CocoaError(.fileReadCorruptFile) }
        current["accepted"] = stamp.map(RuleValue.string)
        fields["current"] = .table(current)
        try Data(CanonicalJSON.encode(.table(fields))).write(to: URL(fileURLWithPath: directory + "/state.json"))
    }

    @Test func anAcceptedUpdateLaunchesWithoutItsChecksRunningAgain() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        let acceptance = Self.acceptance(counter)
        try await Self.installedSeq5(directory, acceptance: acceptance)
        #expect(counter.value > 0, "the invariants ran when seq 5 was installed")
        let stamp = try #require(try Self.currentStamp(directory))
        #expect(
            stamp
                == acceptance.stamp(
                    artifactSHA256: InstallerFixture.identity5.artifactSHA256, pointer: InstallerFixture.pointer5))

        counter.reset()
        let restarted = try InstallerFixture.launch(directory, acceptance: acceptance)
        #expect(restarted.policy.current.identity == InstallerFixture.identity5)
        #expect(restarted.policy.current.origin == .persisted)
        #expect(counter.value == 0, "a stamped update's invariants do not run at launch")
        #expect(restarted.policy.current.decider.bundle?.tests.isEmpty == true, "nor are its tests decoded")
        #expect(InstallerFixture.decidesUnderSeq5(restarted.policy))
        #expect(counter.value == 1, "the app's interceptor still runs for the app's decisions")
    }

    /// What makes the stored stamp not this policy's stamp of the stored bytes.
    enum Tampering: String, CaseIterable, CustomTestStringConvertible {
        /// The stamp is another 64 hex digits.
        case editedStamp
        /// The state has no stamp (written by an app before stamps).
        case noStamp
        /// The stamp is the embedded bundle's, an update's of other bytes.
        case anotherUpdatesStamp
        /// The app's version changed: a new release verifies in full once.
        case newAppVersion
        /// The app's invariants changed.
        case otherInvariants

        var testDescription: String { rawValue }
    }

    @Test(arguments: Tampering.allCases)
    func anyOtherStampVerifiesInFullAndStampsAgain(_ tampering: Tampering) async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        let installing = Self.acceptance(counter)
        try await Self.installedSeq5(directory, acceptance: installing)
        var launching = installing
        switch tampering {
        case .editedStamp: try Self.setCurrentStamp(directory, to: String(repeating: "ab", count: 32))
        case .noStamp: try Self.setCurrentStamp(directory, to: nil)
        case .anotherUpdatesStamp:
            let embedded = installing.stamp(
                artifactSHA256: InstallerFixture.embeddedIdentity.artifactSHA256, pointer: InstallerFixture.pointer5)
            try Self.setCurrentStamp(directory, to: embedded)
        case .newAppVersion: launching = Self.acceptance(counter, hostVersion: SemanticVersion(7))
        case .otherInvariants:
            launching = Self.acceptance(
                counter,
                invariants: ShippingFixture.invariants + [
                    AppInvariant(open: "myapp://start", expect: .redirected(to: "myapp://home"))
                ])
        }

        counter.reset()
        let verified = try InstallerFixture.launch(directory, acceptance: launching)
        #expect(verified.policy.current.identity == InstallerFixture.identity5)
        #expect(counter.value > 0, "verified in full: the invariants ran")
        #expect(
            try Self.currentStamp(directory)
                == launching.stamp(
                    artifactSHA256: InstallerFixture.identity5.artifactSHA256, pointer: InstallerFixture.pointer5))

        counter.reset()
        let again = try InstallerFixture.launch(directory, acceptance: launching)
        #expect(again.policy.current.identity == InstallerFixture.identity5)
        #expect(counter.value == 0, "stamped by the launch that verified it")
    }

    /// A stamped update that the app's new invariants refuse is dropped, and the embedded
    /// bundle decides: the stamp of the policy before does not carry it past the new one.
    @Test func aStampOfAnotherPolicyDoesNotCarryAnUpdatePastNewInvariants() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        try await Self.installedSeq5(directory, acceptance: Self.acceptance(counter))
        let stricter = Self.acceptance(
            counter,
            invariants: ShippingFixture.invariants + [AppInvariant(open: "myapp://legacy", expect: .unmatched)])
        let launched = try InstallerFixture.launch(directory, acceptance: stricter)
        #expect(launched.policy.current.origin == .embedded)
        #expect(try Self.state(directory)["current"] == nil, "the refused update is dropped, as before stamps")
    }

    /// Damaged bytes are refused whatever the stamp says: the store hashes every file
    /// against its name, and the stamp names the bytes.
    @Test(arguments: ["objects", "pointers"])
    func damagedBytesUnderAValidStampFallBack(folder: String) async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        let acceptance = Self.acceptance(counter)
        try await Self.installedSeq5(directory, acceptance: acceptance)
        #expect(try Self.currentStamp(directory) != nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(folder)")
        let name = try #require(files.first)
        let path = "\(directory)/\(folder)/\(name)"
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let launched = try InstallerFixture.launch(directory, acceptance: acceptance)
        #expect(launched.policy.current.origin == .embedded)
        #expect(launched.policy.current.identity == InstallerFixture.embeddedIdentity)
    }
}
