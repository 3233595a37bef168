import Junction
import JunctionAuthoring
import Testing

/// Version gates enforced: a bundle whose `minimum_host_version` is above the app's
/// version is refused by `Decider` and `Router`, with a typed error at the manifest's line.
@MainActor
@Suite struct RouterHostVersionTests {
    static let example = RouterFixture.example  // minimum_host_version: 5.0.0

    /// The app's version → whether the example bundle is taken.
    @Test(
        arguments: [
            (nil, true), ("4.9.9", false), ("5.0.0-beta.1", false), ("5.0.0", true), ("5.0.1", true), ("6.0.0", true),
        ] as [(String?, Bool)])
    func aDeciderTakesABundleOnlyFromAnAppItIsFor(host: String?, taken: Bool) throws {
        let bundle = try RuleBundle.load(directory: Self.example)
        let options = DeciderOptions(hostVersion: host.map { SemanticVersion($0)! })
        do {
            _ = try Decider(bundle: bundle, options: options)
            #expect(taken)
        } catch {
            #expect(!taken)
            #expect(
                error.hostTooOld == BundleError.HostTooOld(required: SemanticVersion(5), host: SemanticVersion(host!)!))
            #expect(error.diagnostics.first?.location?.file.hasSuffix("manifest.yaml") == true)
            #expect(error.diagnostics.first?.location?.line == 4)
            #expect(
                error.description.contains(
                    "needs an app of version 5.0.0 or later (minimum_host_version); this app is \(host!)"))
        }
    }

    @Test func aRouterRefusesABundleForANewerAppAndKeepsTheOneItHas() throws {
        let old = SemanticVersion(4, 9, 0)
        #expect(throws: BundleError.self) {
            try Router(bundle: RuleBundle.load(directory: Self.example), options: DeciderOptions(hostVersion: old))
        }
        let table = try RouteTable(routes: [Route(name: "home", pattern: "myapp://home")])
        let router = try Router(routes: table, options: DeciderOptions(hostVersion: old))
        #expect(router.hostVersion == old)
        let bundle = try RuleBundle.load(directory: Self.example)
        let error = #expect(throws: BundleError.self) { try router.load(bundle: bundle) }
        #expect(error?.hostTooOld?.required == SemanticVersion(5))
        #expect(router.decider.bundle == nil)
        #expect(router.decider.routes.routes.map(\.name) == ["home"])
    }
}
