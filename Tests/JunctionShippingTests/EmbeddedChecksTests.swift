import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// The embedded bundle decides as soon as it is verified and compiled; its own tests and
/// the app's invariants run after, in the background. Failing them — the app's build is
/// wrong — it keeps deciding, as nothing else passed, and says so: an error in the log, a
/// refusal on the events, `failed` in the status.
@Suite struct EmbeddedChecksTests {
    /// The fixture's bundle with its rules emptied: its test "guests log in first" fails,
    /// and so does the app's invariant that gates guests before their orders.
    static let ungated: [UInt8] = {
        var members = ShippingFixture.next
        members.lua = members.lua.mapValues { _ in Array("-- the login gate was lost\n".utf8) }
        return ShippingFixture.artifact(members, version: "1.0.0")
    }()

    /// The first failure the events report, waiting at most two minutes (a parallel test run
    /// can keep the checks from running for many seconds).
    static func firstFailure(of installer: BundleInstaller) async -> UpdateFailure? {
        let events = installer.events
        return await withTaskGroup(of: UpdateFailure?.self) { group in
            group.addTask {
                for await event in events { if case .failed(let failure) = event { return failure } }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(120))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func theEmbeddedBundleDecidesAtOnceAndPassesItsChecksAfter() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let installer = try InstallerFixture.launch(directory)
        #expect(installer.policy.current.origin == .embedded)
        #expect(await installer.embeddedChecks() == nil)
        #expect(await installer.status(at: InstallerFixture.now).condition == .ok)
    }

    @Test(arguments: [
        ("its own test fails", ungated, UpdateRefusal.Code.selfTestFailed),
        ("an invariant fails", ShippingFixture.artifact(ShippingFixture.next, version: "1.0.0"), .invariantFailed),
    ])
    func anEmbeddedBundleFailingItsChecksKeepsDecidingAndSaysSo(
        _ label: String, _ embedded: [UInt8], _ code: UpdateRefusal.Code
    ) async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        // For "an invariant fails", the app promises a route only the previous bundle has.
        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: ShippingFixture.keyring, hostVersion: SemanticVersion(6), channel: "stable",
                invariants: ShippingFixture.invariants
                    + (code == .invariantFailed
                        ? [AppInvariant(open: "myapp://legacy", expect: .opens(route: "legacy"))] : [])))
        let log = CapturedLog()
        let installer = try BundleInstaller.launch(
            acceptance: acceptance, store: BundleStore(directory: directory), embedded: embedded,
            at: InstallerFixture.now, logger: log.logger)
        #expect(installer.policy.current.origin == .embedded, "\(label): it decides")
        #expect(installer.policy.decide(RouteRequest("myapp://home")).match?.route.name == "home")

        let refusal = try #require(await installer.embeddedChecks(), "\(label)")
        #expect(refusal.code == code, "\(label): \(refusal)")
        guard case .refused(let reported)? = await Self.firstFailure(of: installer) else {
            Issue.record("\(label): no failure on the events")
            return
        }
        #expect(reported.code == code)
        #expect(await installer.status(at: InstallerFixture.now).condition == .failed(.refused(refusal)))
        #expect(log.messages.contains { $0.hasPrefix("the embedded bundle fails its checks on this device") })
        #expect(installer.policy.current.origin == .embedded, "\(label): it still decides")

        // An update that passes clears the failure.
        let installed = await installer.install(
            pointer: InstallerFixture.pointer5, at: InstallerFixture.now,
            fetch: InstallerFixture.Server(InstallerFixture.artifact5).fetch)
        if code == .selfTestFailed {
            #expect(installed == .installed(InstallerFixture.identity5))
            #expect(await installer.status(at: InstallerFixture.now).condition == .ok)
        }
    }

    /// After an update installs, a kill switch still refuses an embedded bundle whose
    /// deferred checks failed — as a kill switch refused one that fails its checks before
    /// checks were deferred — and the update keeps deciding; the late failure is no news
    /// on the status.
    @Test func aKillSwitchRefusesAnEmbeddedBundleWhoseChecksFailed() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let installer = try BundleInstaller.launch(
            acceptance: InstallerFixture.acceptance, store: BundleStore(directory: directory), embedded: Self.ungated,
            at: InstallerFixture.now)
        #expect(await installer.embeddedChecks()?.code == .selfTestFailed)
        let installed = await installer.install(
            pointer: InstallerFixture.pointer5, at: InstallerFixture.now,
            fetch: InstallerFixture.Server(InstallerFixture.artifact5).fetch)
        #expect(installed == .installed(InstallerFixture.identity5))
        #expect(await installer.status(at: InstallerFixture.now).condition == .ok)

        let kill = ShippingFixture.pointer(for: InstallerFixture.artifact5, seq: 6, pinEmbedded: true)
        let event = await installer.install(pointer: kill, at: InstallerFixture.now) { _ in [] }
        guard case .failed(.refused(let refusal)) = event else {
            Issue.record("the kill switch was taken: \(event)")
            return
        }
        #expect(refusal.code == .selfTestFailed)
        #expect(installer.policy.current.identity == InstallerFixture.identity5, "the update keeps deciding")
    }

    /// With a kill switch in force, the embedded bundle's checks run before it decides, as
    /// an update's do: one that fails them is refused at launch.
    @Test func underAKillSwitchTheChecksRunFirst() async throws {
        let directory = InstallerFixture.directory()
        defer { InstallerFixture.remove(directory) }
        let store = BundleStore(directory: directory)
        let kill = ShippingFixture.pointer(for: InstallerFixture.artifact5, seq: 6, pinEmbedded: true)
        try store.pin(StoredPin(identity: UpdateIdentity(seq: 6, artifact: InstallerFixture.artifact5), pointer: kill))
        #expect(throws: UpdateRefusal.self) {
            _ = try BundleInstaller.launch(
                acceptance: InstallerFixture.acceptance, store: store, embedded: Self.ungated, at: InstallerFixture.now)
        }
        let launched = try BundleInstaller.launch(
            acceptance: InstallerFixture.acceptance, store: store, embedded: InstallerFixture.embedded,
            at: InstallerFixture.now)
        #expect(launched.policy.current.origin == .embedded)
        #expect(await launched.embeddedChecks() == nil, "no checks deferred")
    }
}
