import Foundation
import Junction
import JunctionCore
import JunctionShipping
import Testing

/// An update accepted on a device with a stamp key is stamped in the store (an HMAC under
/// that key), so a launch verifies it again without running its self-tests and the app's
/// invariants; anything that makes the stamp not this policy's stamp of these bytes — an
/// edited or removed stamp, one made without the key, another app, other bytes — is
/// verified in full, as before, and what fails falls back as it always did. Without a key
/// nothing is stamped.
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

    /// The device's secret, and another device's.
    static let key = [UInt8](repeating: 0x5A, count: 32)
    static let otherKey = [UInt8](repeating: 0xA5, count: 32)

    /// The fixture's acceptance with a counting interceptor, a stamp key, and, when given,
    /// other invariants, another app version or another interceptor priority.
    static func acceptance(
        _ counter: Counter, key: [UInt8]? = key, invariants: [AppInvariant] = ShippingFixture.invariants,
        hostVersion: SemanticVersion = SemanticVersion(6), priority: Int = 0,
        keyring: Keyring = ShippingFixture.keyring
    ) -> UpdateAcceptance {
        UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: keyring, hostVersion: hostVersion, channel: "stable", invariants: invariants,
                interceptors: [
                    SwiftInterceptor("count", scope: .all, priority: priority) { _, _ in
                        counter.add()
                        return .continue
                    }
                ],
                stampKey: key))
    }

    /// A store holding seq 5, installed (and stamped, with a key) by an installer of `acceptance`.
    static func installedSeq5(_ directory: String, acceptance: UpdateAcceptance) async throws {
        let installer = try InstallerFixture.launch(directory, acceptance: acceptance)
        let event = await installer.install(
            pointer: InstallerFixture.pointer5, at: InstallerFixture.now,
            fetch: InstallerFixture.Server(InstallerFixture.artifact5).fetch)
        #expect(event == .installed(InstallerFixture.identity5))
    }

    /// Where the store keeps seq 5's stamp.
    static func stampFile(_ directory: String) -> URL {
        URL(fileURLWithPath: "\(directory)/stamps/\(ShippingFixture.hash(InstallerFixture.pointer5))")
    }

    /// Seq 5's stamp in the store, if any.
    static func stamp(_ directory: String) -> String? {
        (try? Data(contentsOf: stampFile(directory))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The stamp `acceptance` gives seq 5.
    static func seq5Stamp(_ acceptance: UpdateAcceptance) -> String? {
        acceptance.stamp(artifactSHA256: InstallerFixture.identity5.artifactSHA256, pointer: InstallerFixture.pointer5)
    }

    @Test func anAcceptedUpdateLaunchesWithoutItsChecksRunningAgain() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        let acceptance = Self.acceptance(counter)
        try await Self.installedSeq5(directory, acceptance: acceptance)
        #expect(counter.value > 0, "the invariants ran when seq 5 was installed")
        #expect(Self.stamp(directory) != nil)
        #expect(Self.stamp(directory) == Self.seq5Stamp(acceptance))
        let state = try String(contentsOfFile: directory + "/state.json", encoding: .utf8)
        #expect(!state.contains("accepted"), "the state file is as an earlier app writes it")

        counter.reset()
        let restarted = try InstallerFixture.launch(directory, acceptance: acceptance)
        #expect(restarted.policy.current.identity == InstallerFixture.identity5)
        #expect(restarted.policy.current.origin == .persisted)
        #expect(counter.value == 0, "a stamped update's invariants do not run at launch")
        #expect(restarted.policy.current.decider.bundle?.tests.isEmpty == true, "nor are its tests decoded")
        #expect(InstallerFixture.decidesUnderSeq5(restarted.policy))
        #expect(counter.value == 1, "the app's interceptor still runs for the app's decisions")
    }

    /// The last-known-good keeps its stamp: when the current update's files are damaged, it
    /// launches without its checks running again.
    @Test func aStampedLastKnownGoodLaunchesWithoutItsChecks() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        let acceptance = Self.acceptance(counter)
        let installer = try InstallerFixture.launch(directory, acceptance: acceptance)
        for (pointer, artifact, identity) in [
            (InstallerFixture.pointer5, InstallerFixture.artifact5, InstallerFixture.identity5),
            (InstallerFixture.pointer6, InstallerFixture.artifact6, InstallerFixture.identity6),
        ] {
            let event = await installer.install(
                pointer: pointer, at: InstallerFixture.now, fetch: InstallerFixture.Server(artifact).fetch)
            #expect(event == .installed(identity))
        }
        let object = "\(directory)/objects/\(InstallerFixture.identity6.artifactSHA256).jbundle"
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: object))

        counter.reset()
        let launched = try InstallerFixture.launch(directory, acceptance: acceptance)
        #expect(launched.policy.current.identity == InstallerFixture.identity5)
        #expect(launched.policy.current.origin == .lastKnownGood)
        #expect(counter.value == 0)
    }

    /// What makes the stored stamp not this policy's stamp of the stored bytes.
    enum Tampering: String, CaseIterable, CustomTestStringConvertible {
        /// The stamp is another 64 hex digits.
        case editedStamp
        /// There is no stamp file.
        case noStamp
        /// The stamp is not 64 hex digits.
        case damagedStamp
        /// The stamp, of these bytes and this policy, made with another key: a forgery.
        case forgedWithAnotherKey
        /// The stamp is the right key's, of other bytes.
        case anotherUpdatesStamp
        /// The app's version changed: a new release verifies in full once.
        case newAppVersion
        /// The app's invariants changed.
        case otherInvariants
        /// The app's interceptor runs at another priority.
        case otherInterceptor
        /// The app trusts one more key: the signatures are checked again.
        case anotherKeyTrusted

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
        let file = Self.stampFile(directory)
        switch tampering {
        case .editedStamp: try Data(String(repeating: "ab", count: 32).utf8).write(to: file)
        case .noStamp: try FileManager.default.removeItem(at: file)
        case .damagedStamp: try Data("not a stamp".utf8).write(to: file)
        case .forgedWithAnotherKey:
            let forged = try #require(Self.seq5Stamp(Self.acceptance(counter, key: Self.otherKey)))
            try Data(forged.utf8).write(to: file)
        case .anotherUpdatesStamp:
            let other = try #require(
                installing.stamp(
                    artifactSHA256: InstallerFixture.embeddedIdentity.artifactSHA256, pointer: InstallerFixture.pointer5
                ))
            try Data(other.utf8).write(to: file)
        case .newAppVersion: launching = Self.acceptance(counter, hostVersion: SemanticVersion(7))
        case .otherInvariants:
            launching = Self.acceptance(
                counter,
                invariants: ShippingFixture.invariants + [
                    AppInvariant(open: "myapp://start", expect: .redirected(to: "myapp://home"))
                ])
        case .otherInterceptor: launching = Self.acceptance(counter, priority: 5)
        case .anotherKeyTrusted:
            launching = Self.acceptance(
                counter, keyring: Keyring([ShippingFixture.key.publicKey, ShippingFixture.otherKey.publicKey]))
        }

        counter.reset()
        let verified = try InstallerFixture.launch(directory, acceptance: launching)
        #expect(verified.policy.current.identity == InstallerFixture.identity5)
        #expect(counter.value > 0, "verified in full: the invariants ran")
        #expect(Self.stamp(directory) == Self.seq5Stamp(launching), "stamped again")

        counter.reset()
        let again = try InstallerFixture.launch(directory, acceptance: launching)
        #expect(again.policy.current.identity == InstallerFixture.identity5)
        #expect(counter.value == 0, "stamped by the launch that verified it")
    }

    /// The signatures a stamp spares are those of the keyring it was made under: an app
    /// that no longer trusts the signing key refuses the stamped update (its stamp is not
    /// this policy's, so the signatures are checked again).
    @Test func aStampedUpdateOfAKeyNoLongerTrustedIsRefused() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        try await Self.installedSeq5(directory, acceptance: Self.acceptance(counter))
        let stored = try #require(BundleStore(directory: directory).load().current)
        #expect(stored.acceptance != nil)
        let revoked = Self.acceptance(counter, keyring: Keyring([ShippingFixture.otherKey.publicKey]))
        #expect(
            performing: { try revoked.reverify(stored) },
            throws: { error in
                (error as? UpdateRefusal)?.code == .pointerUnknownKey
            })
    }

    /// Only the store's own reading spares a launch the artifact's hash (it checked every
    /// file against its name): an update made by anyone else, under a valid stamp, has its
    /// bytes hashed against the pointer.
    @Test func aStoredUpdateNotReadByTheStoreIsHashedAgain() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let acceptance = Self.acceptance(Counter())
        try await Self.installedSeq5(directory, acceptance: acceptance)
        let stored = try #require(BundleStore(directory: directory).load().current)
        #expect(stored.artifactHashChecked)
        var damaged = stored.artifact
        damaged[damaged.count / 2] ^= 0x01
        let made = StoredUpdate(
            identity: stored.identity, pointer: stored.pointer, artifact: damaged, acceptance: stored.acceptance)
        #expect(!made.artifactHashChecked)
        #expect(
            performing: { try acceptance.reverify(made) },
            throws: { error in
                (error as? UpdateRefusal)?.code == .artifactHashMismatch
            })
        #expect(try acceptance.reverify(stored).identity == InstallerFixture.identity5)
    }

    /// A stamp made without the device's key — or the key's stamp under the app's earlier
    /// policy — does not carry an update past invariants it breaks: it is verified in full,
    /// dropped, and the embedded bundle decides.
    @Test(arguments: [false, true])
    func noStampCarriesAnUpdatePastInvariantsItBreaks(forged: Bool) async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        let earlier = Self.acceptance(counter)
        try await Self.installedSeq5(directory, acceptance: earlier)
        let stricter = Self.acceptance(
            counter,
            invariants: ShippingFixture.invariants + [AppInvariant(open: "myapp://legacy", expect: .unmatched)])
        if forged {
            // What a writer of the store could make: the stricter policy's stamp, with a key of its own.
            let forgery = UpdateAcceptance(
                policy: AcceptancePolicy(
                    keyring: ShippingFixture.keyring, hostVersion: SemanticVersion(6), channel: "stable",
                    invariants: stricter.policy.invariants, interceptors: stricter.policy.interceptors,
                    stampKey: Self.otherKey))
            try Data(try #require(Self.seq5Stamp(forgery)).utf8).write(to: Self.stampFile(directory))
        }
        let launched = try InstallerFixture.launch(directory, acceptance: stricter)
        #expect(launched.policy.current.origin == .embedded)
        #expect(BundleStore(directory: directory).load().current == nil, "the refused update is dropped")
    }

    /// Without a stamp key, nothing is stamped and every launch verifies in full.
    @Test func withoutAKeyEveryLaunchVerifiesInFull() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let counter = Counter()
        let acceptance = Self.acceptance(counter, key: nil)
        try await Self.installedSeq5(directory, acceptance: acceptance)
        #expect(Self.seq5Stamp(acceptance) == nil)
        #expect(Self.stamp(directory) == nil)
        for _ in 0..<2 {
            counter.reset()
            let launched = try InstallerFixture.launch(directory, acceptance: acceptance)
            #expect(launched.policy.current.identity == InstallerFixture.identity5)
            #expect(counter.value > 0)
            #expect(Self.stamp(directory) == nil)
        }
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
        #expect(Self.stamp(directory) != nil)
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

    /// The store stamps only an update its state names, and forgets a stamp with its update.
    @Test func theStoreKeepsStampsOnlyForTheUpdatesItHolds() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        let seq5 = StoredUpdate(
            identity: InstallerFixture.identity5, pointer: InstallerFixture.pointer5,
            artifact: InstallerFixture.artifact5)
        try store.recordAcceptance(String(repeating: "1", count: 64), of: seq5)
        #expect(Self.stamp(directory) == nil, "not held: not stamped")
        #expect(throws: StoreError.self) { try store.recordAcceptance("not hex", of: seq5) }

        try store.commit(seq5)
        try store.recordAcceptance(String(repeating: "1", count: 64), of: seq5)
        #expect(store.load().current?.acceptance == String(repeating: "1", count: 64))
        let seq6 = StoredUpdate(
            identity: InstallerFixture.identity6, pointer: InstallerFixture.pointer6,
            artifact: InstallerFixture.artifact6, acceptance: String(repeating: "2", count: 64))
        try store.commit(seq6)
        #expect(store.load().current?.acceptance == String(repeating: "2", count: 64))
        #expect(store.load().lastKnownGood?.acceptance == String(repeating: "1", count: 64))
    }
}
