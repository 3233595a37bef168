import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import JunctionCore
import Testing

/// The app's layer of routes belongs to the policy: every snapshot activated — by the
/// installer, by anyone — decides with it, and a change of the layer is never lost to a
/// swap that races it, nor a swap to the change.
@Suite struct AppRoutesPolicyTests {
    typealias Fixture = InstallerFixture

    static let extra = Route(name: "extra", pattern: "myapp://extra", target: "Extra", isExported: true)

    static func adding(_ routes: [Route], to policy: ActivePolicy) throws(BundleError) {
        try policy.updateAppRoutes { current, layer throws(BundleError) in
            var changed = layer
            do throws(RouteTableError) { try changed.add(routes) } catch { throw BundleError(error.diagnostics) }
            return try current.with(appRoutes: changed)
        }
    }

    @Test func aSnapshotActivatedWithoutTheLayerDecidesWithIt() throws {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        try Self.adding([Self.extra], to: policy)
        #expect(policy.decide(RouteRequest("myapp://extra")).match?.route.target == "Extra")

        let previous = policy.activate(PolicyFixture.snapshotB)
        #expect(previous.decider.appRoutes.routes == [Self.extra])
        let current = policy.current
        #expect(current !== PolicyFixture.snapshotB)  // rebuilt with the layer
        #expect(current.origin == .update)
        #expect(current.identity == PolicyFixture.snapshotB.identity)
        #expect(current.bundle?.manifest.name == "policy-b")
        #expect(policy.decide(RouteRequest("myapp://extra")).match?.route.target == "Extra")
        #expect(PolicyFixture.label(policy.decide(RouteRequest(PolicyFixture.url))) == "PB+b")
    }

    @Test func theInstallersUpdateKeepsTheAppsRoutes() async throws {
        let directory = Fixture.directory()
        defer { Fixture.remove(directory) }
        let log = CapturedLog()
        let installer = try Fixture.launch(directory, log: log)
        // seq 5 alone has a route named "legacy": the app's code route of that name yields to it.
        try Self.adding([Self.extra, Route(name: "legacy", pattern: "myapp://app-legacy")], to: installer.policy)
        let event = await installer.install(
            pointer: Fixture.pointer5, at: Fixture.now, fetch: Fixture.Server(Fixture.artifact5).fetch)
        #expect(event == .installed(Fixture.identity5))
        #expect(installer.policy.current.identity == Fixture.identity5)
        #expect(Fixture.decidesUnderSeq5(installer.policy))
        #expect(installer.policy.decide(RouteRequest("myapp://extra")).match?.route.target == "Extra")
        #expect(installer.policy.current.decider.setAsideRoutes.map(\.route.pattern) == ["myapp://app-legacy"])
        let warning = try #require(log.entries.first { $0.message.contains("sets aside") })
        #expect(warning.level == .warning)
        #expect(warning.message.hasPrefix("\(installer.policy.current) sets aside 1 route the app registered in code"))
        #expect(warning.message.contains("\"legacy\" (the bundle's route \"legacy\""))
    }

    /// A swap that lands while the change is being built neither undoes the change nor makes
    /// it start over (with swaps flat out it could never finish): the snapshot swapped in is
    /// rebuilt with the new layer.
    @Test func aSnapshotSwappedInWhileTheLayerChangesIsRebuiltWithIt() throws {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        var bases: [String] = []
        try policy.updateAppRoutes { current, layer throws(BundleError) in
            bases.append(current.bundle?.manifest.name ?? "none")
            if bases.count == 1 { policy.activate(PolicyFixture.snapshotB) }
            var changed = layer
            do throws(RouteTableError) { try changed.add(Self.extra) } catch { throw BundleError(error.diagnostics) }
            return try current.with(appRoutes: changed)
        }
        #expect(bases == ["policy-a"])
        #expect(policy.current.bundle?.manifest.name == "policy-b")
        #expect(policy.current.identity == PolicyFixture.snapshotB.identity)
        #expect(policy.appRoutes.routes == [Self.extra])
        #expect(policy.current.decider.routes.route(named: "extra") != nil)
    }

    @Test func aChangeOfTheLayerMeanwhileMakesTheChangeStartOver() throws {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        var layers: [[String]] = []
        try policy.updateAppRoutes { current, layer throws(BundleError) in
            layers.append(layer.routes.map(\.name))
            if layers.count == 1 { try Self.adding([Route(name: "first", pattern: "myapp://first")], to: policy) }
            var changed = layer
            do throws(RouteTableError) { try changed.add(Self.extra) } catch { throw BundleError(error.diagnostics) }
            return try current.with(appRoutes: changed)
        }
        #expect(layers == [[], ["first"]])
        #expect(policy.appRoutes.routes.map(\.name) == ["first", "extra"])
        #expect(policy.current.decider.appRoutes == policy.appRoutes)
    }

    @Test func aSwapBuiltForAnOlderLayerIsBuiltAgain() throws {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        var calls = 0
        policy.update { current in
            calls += 1
            // The app adds a route while this swap is being built: the swap must carry it.
            if calls == 1 { try? Self.adding([Self.extra], to: policy) }
            return PolicySnapshot(decider: PolicyFixture.snapshotB.decider, origin: .app)
        }
        #expect(policy.current.bundle?.manifest.name == "policy-b")
        #expect(policy.current.decider.routes.route(named: "extra") != nil)
        #expect(policy.appRoutes.routes == [Self.extra])
    }

    /// Two threads swap A and B in as fast as they can — each swap rebuilt with the layer —
    /// while the app registers 30 routes one by one: every registration lands (none waits for
    /// a lull in the swapping), the snapshot in force has every route, and no decision ever
    /// mixed A's routes with B's rules.
    @Test func registeringWhileSnapshotsAreSwappedLosesNothing() throws {
        let policy = ActivePolicy(PolicyFixture.snapshotA)
        let registered = 30
        let mixed = Locked(0)
        let stop = Locked(false)
        let swappers = DispatchGroup()
        for thread in 0..<2 {
            swappers.enter()
            Thread {
                var swaps = 0
                while !stop.withLock({ $0 }) || swaps < 10 {
                    let even = swaps.isMultiple(of: 2) == thread.isMultiple(of: 2)
                    policy.activate(even ? PolicyFixture.snapshotA : PolicyFixture.snapshotB)
                    let label = PolicyFixture.label(policy.decide(RouteRequest(PolicyFixture.url)))
                    if label != "PA+a" && label != "PB+b" { mixed.withLock { $0 += 1 } }
                    swaps += 1
                }
                swappers.leave()
            }.start()
        }
        for index in 0..<registered {
            try Self.adding([Route(name: "code.\(index)", pattern: "myapp://code/\(index)")], to: policy)
        }
        stop.withLock { $0 = true }
        swappers.wait()
        let names = Set(policy.current.decider.routes.routes.map(\.name))
        #expect((0..<registered).allSatisfy { names.contains("code.\($0)") })
        #expect(policy.appRoutes.routes.count == registered)
        #expect(policy.current.decider.appRoutes == policy.appRoutes)
        #expect(mixed.withLock { $0 } == 0)
    }
}
