import Junction
import JunctionArtifact
import JunctionAuthoring
import JunctionCore
import JunctionShipping
import JunctionTestSupport
import Testing

/// A device runs the bundle's own tests at acceptance: what their rules log goes to the
/// self-test logger, never to the app's rule log, where it would read as traffic.
@Suite struct SelfTestOutputTests {
    @Test func theExamplesSelfTestsLogAsSelfTestsAndOnlyRealDecisionsLogAsTraffic() throws {
        let bytes = try ExampleBundleAcceptanceTests.artifact(
            of: try RuleBundle.load(directory: ExampleBundleAcceptanceTests.folder))
        let traffic = CapturedLog()
        let selfTests = CapturedLog()
        let acceptance = UpdateAcceptance(
            policy: AcceptancePolicy(
                keyring: ShippingFixture.keyring, hostVersion: SemanticVersion(6), channel: "stable",
                ruleLogger: traffic.logger, selfTestLogger: selfTests.logger))
        let update = try acceptance.acceptEmbedded(bytes)
        #expect(traffic.messages == [])
        #expect(selfTests.messages.contains { $0.hasPrefix("push link ") })

        _ = update.decider.decide(RouteRequest("myapp://user/42?campaign=spring", source: .push))
        #expect(traffic.messages == ["push link myapp://user/42?campaign=spring campaign=spring"])
    }
}
