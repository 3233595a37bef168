import Foundation
import Junction
import JunctionAuthoring
import Testing

/// Every route of `rules/example/routes.yaml` through its generated function and back:
/// the URL built from typed arguments matches the same route with the same parameters.
@Suite struct ExampleRoutesRoundTripTests {
    static let routesFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../rules/example/routes.yaml").standardized.path
    static let table = try! RouteTable.load(contentsOf: routesFile)
    static let draft = UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301")!

    /// A generated URL, the route it must reach and the parameters the route gets.
    struct Trip: CustomTestStringConvertible, Sendable {
        let url: String
        let route: String
        let params: [String: RuleValue]
        var testDescription: String { url }
    }

    static let trips: [Trip] = [
        Trip(url: Routes.home(), route: Routes.Name.home, params: [:]),
        Trip(url: Routes.userProfile(id: 42), route: Routes.Name.userProfile, params: ["id": 42, "tab": "posts"]),
        Trip(
            url: Routes.userProfile(id: -7, tab: "likes & more"), route: Routes.Name.userProfile,
            params: ["id": -7, "tab": "likes & more"]),
        Trip(url: Routes.userByName(name: "alice"), route: Routes.Name.userByName, params: ["name": "alice"]),
        Trip(
            url: Routes.userByName(name: "a b/c?d#e&f=g+h%i 中文 🚀"), route: Routes.Name.userByName,
            params: ["name": "a b/c?d#e&f=g+h%i 中文 🚀"]),
        Trip(url: Routes.userSettings(), route: Routes.Name.userSettings, params: [:]),
        Trip(
            url: Routes.userSettings(section: "privacy"), route: Routes.Name.userSettings,
            params: ["section": "privacy"]),
        Trip(url: Routes.moments(), route: Routes.Name.moments, params: [:]),
        Trip(url: Routes.moments(id: 7), route: Routes.Name.moments, params: ["id": 7]),
        Trip(url: Routes.login(), route: Routes.Name.login, params: [:]),
        Trip(url: Routes.upgrade(), route: Routes.Name.upgrade, params: [:]),
        Trip(
            url: Routes.upgrade(from: "myapp://orders/7?x=1"), route: Routes.Name.upgrade,
            params: ["from": "myapp://orders/7?x=1"]),
        Trip(url: Routes.checkout(), route: Routes.Name.checkout, params: [:]),
        Trip(url: Routes.checkoutV2(), route: Routes.Name.checkoutV2, params: [:]),
        Trip(url: Routes.liveRoom(room: 3), route: Routes.Name.liveRoom, params: ["room": 3]),
        Trip(url: Routes.liveWeb(rest: "h5/room 9"), route: Routes.Name.liveWeb, params: ["**": "h5/room 9"]),
        Trip(url: Routes.experiment(name: "onboarding"), route: Routes.Name.experiment, params: ["name": "onboarding"]),
        Trip(
            url: Routes.orderDetail(orderId: "AB123456"), route: Routes.Name.orderDetail,
            params: ["orderId": "AB123456"]),
        Trip(url: Routes.addressPicker(), route: Routes.Name.addressPicker, params: [:]),
        Trip(url: Routes.videoCapture(), route: Routes.Name.videoCapture, params: [:]),
        Trip(
            url: Routes.videoEdit(draft: draft), route: Routes.Name.videoEdit,
            params: ["draft": .string(draft.uuidString.lowercased())]),
        Trip(
            url: Routes.videoPublish(draft: draft), route: Routes.Name.videoPublish,
            params: ["draft": .string(draft.uuidString.lowercased())]),
        Trip(url: Routes.share(), route: Routes.Name.share, params: [:]),
        Trip(
            url: Routes.web(url: "https://m.example.com/a?b=c&d=e#f"), route: Routes.Name.web,
            params: ["url": "https://m.example.com/a?b=c&d=e#f"]),
        Trip(
            url: Routes.helpArticle(rest: "billing/refunds"), route: Routes.Name.helpArticle,
            params: ["**": "billing/refunds"]),
        Trip(url: Routes.universalUser(id: 9), route: Routes.Name.universalUser, params: ["id": 9]),
        Trip(
            url: Routes.files(rest: "a/b.txt", origin: "myapp://"), route: Routes.Name.files, params: ["**": "a/b.txt"]),
        Trip(url: Routes.promo(segment: "spring sale"), route: Routes.Name.promo, params: [:]),
        Trip(url: Routes.orders(), route: Routes.Name.orders, params: [:]),
        Trip(url: Routes.navTab(index: 2), route: Routes.Name.navTab, params: ["index": 2]),
        Trip(
            url: Routes.navBack(count: 2, then: Routes.orderDetail(orderId: "AB123456")), route: Routes.Name.navBack,
            params: ["count": 2, "then": "myapp://order/AB123456"]),
        Trip(url: Routes.navBack(to: "home"), route: Routes.Name.navBack, params: ["to": "home"]),
    ]

    @Test(arguments: trips)
    func aGeneratedURLMatchesItsRouteWithItsParameters(_ trip: Trip) throws {
        let decision = try Decider(routes: Self.table).decide(RouteRequest(trip.url))
        #expect(decision.match?.route.name == trip.route, "\(decision.summary)")
        #expect(decision.params == trip.params)
    }

    @Test func everyRouteOfTheTableIsTakenRoundTrip() {
        let reached = Set(Self.trips.map(\.route))
        #expect(Self.table.routes.filter { !reached.contains($0.name) }.map(\.name) == [])
    }

    @Test func urlsAreWhatAPersonWouldWrite() {
        #expect(Routes.userProfile(id: 42) == "myapp://user/42")
        #expect(Routes.userProfile(id: 42, tab: "likes") == "myapp://user/42?tab=likes")
        #expect(Routes.userByName(name: "a b/c") == "myapp://user/a%20b%2Fc")
        #expect(Routes.moments() == "myapp://moments")
        #expect(Routes.helpArticle() == "https://help.example.com/articles")
        #expect(Routes.files(rest: "x", origin: "https://cdn.example.com") == "https://cdn.example.com/files/x")
    }

    @Test func theCheckedInFileIsWhatTheCommandWritesToday() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "ExampleRoutes.swift")
        let generated = try SwiftRouteCode.generate(
            Self.table, source: "routes.yaml",
            options: SwiftRouteCodeOptions(command: "junction codegen routes.yaml --swift ExampleRoutes.swift"))
        let checkedIn = try String(contentsOf: here, encoding: .utf8)
        #expect(
            generated == checkedIn,
            "regenerate it: junction codegen rules/example/routes.yaml --swift Tests/JunctionGeneratedRoutesTests/ExampleRoutes.swift"
        )
    }
}
