import Junction
import Testing

/// `verifyRegistrations()`: what the policy leads to that nothing is registered for, found
/// at launch with the name most likely meant.
@MainActor
@Suite struct RouterVerifyRegistrationsTests {
    static let routes = """
          - { name: product, pattern: "myapp://product/:id", exported: true }
          - { name: product.reviews, pattern: "myapp://product/:id/reviews", target: product }
          - { name: cart, pattern: "myapp://cart" }
          - { name: tab, pattern: "myapp://tab/:index", target: junction.tab }
          - { name: share, pattern: "myapp://action/share", target: share }
        options:
          dispatchedSchemes: [flutter, wxmp]

        """

    @Test func aTypoInATargetAndAMissingDispatcherAreFoundWithTheNameMeant() throws {
        let router = try Router(bundle: RouterAppRoutesTests.bundle("verify", routes: Self.routes))
        router.register(page: "ProductPage") { $0 }  // the typo: the routes' target is "product"
        router.register(page: "cart") { $0 }
        router.register(task: "shar") { _ in nil }
        router.register(dispatcher: "flutter") { _ in .handled(nil) }
        router.register(dispatcher: "wxm") { _ in .handled(nil) }
        let missing = router.verifyRegistrations()
        #expect(
            missing.map(\.description) == [
                #"routes "product", "product.reviews" lead to target "product", which has no page factory or task registered; did you mean "ProductPage"?"#,
                #"route "share" leads to target "share", which has no page factory or task registered; did you mean "shar"?"#,
                #""wxmp" URLs are handed to a dispatcher (dispatched_schemes), and none is registered for the scheme; did you mean "wxm"?"#,
            ])
        #expect(missing.map(\.kind) == [.target, .target, .scheme])
        #expect(missing.first?.routes == ["product", "product.reviews"])
    }

    @Test func aRouterWithEverythingRegisteredHasNothingMissing() throws {
        let router = try RouterFixture.router()
        router.register(page: "experiment") { $0 }  // the one target the fixture leaves out
        let missing = router.verifyRegistrations()
        #expect(missing == [], "\(missing.map(\.description))")
    }

    @Test func nothingNearIsSuggestedAsNothing() throws {
        let router = try Router(bundle: RouterAppRoutesTests.bundle("verify", routes: Self.routes))
        let missing = router.verifyRegistrations()
        #expect(missing.allSatisfy { $0.nearest == nil })
        #expect(missing.map(\.name) == ["product", "cart", "share", "flutter", "wxmp"])
    }
}
