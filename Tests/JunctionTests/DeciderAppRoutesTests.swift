import Junction
import Testing

/// Laying the app's layer over a table: code routes after the table's, set aside where the
/// table has their name or pattern; memberships applied to every route by name.
@Suite struct DeciderAppRoutesTests {
    static let table = try! RouteTable(routes: [
        Route(name: "home", pattern: "myapp://home"),
        Route(name: "user", pattern: "myapp://user/:id", groups: ["login"]),
        Route(name: "files", pattern: "myapp://files/**", groups: ["login", "vip"]),
    ])

    /// A layer → the decider's table (names in order), the routes set aside, and groups.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var routes: [Route] = []
        var memberships: [AppRoutes.Membership] = []
        let table: [String]
        var setAside: [String] = []
        var groups: [String: [String]] = [:]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an empty layer", table: ["home", "user", "files"]),
        Case(
            name: "a new route goes last", routes: [Route(name: "promo", pattern: "myapp://promo")],
            table: ["home", "user", "files", "promo"]),
        Case(
            name: "the table's name wins", routes: [Route(name: "home", pattern: "myapp://start")],
            table: ["home", "user", "files"], setAside: ["home"]),
        Case(
            name: "the table's pattern wins, even spelt otherwise",
            routes: [Route(name: "profile", pattern: "myapp://user/:uid"), Route(name: "ok", pattern: "myapp://ok")],
            table: ["home", "user", "files", "ok"], setAside: ["profile"]),
        Case(
            name: "a more specific pattern is no clash", routes: [Route(name: "me", pattern: "myapp://user/me")],
            table: ["home", "user", "files", "me"]),
        Case(
            name: "memberships change the table's routes",
            memberships: [
                .init(route: "home", group: "login", isMember: true),
                .init(route: "files", group: "login", isMember: false),
            ], table: ["home", "user", "files"], groups: ["home": ["login"], "files": ["vip"], "user": ["login"]]),
        Case(
            name: "and code routes, after their own groups",
            routes: [Route(name: "promo", pattern: "myapp://promo", groups: ["ads"])],
            memberships: [.init(route: "promo", group: "login", isMember: true)],
            table: ["home", "user", "files", "promo"], groups: ["promo": ["ads", "login"]]),
        Case(
            name: "a membership of a route the table lacks waits",
            memberships: [.init(route: "gone", group: "login", isMember: true)], table: ["home", "user", "files"]),
        Case(
            name: "putting a route into a group it has already changes nothing",
            memberships: [.init(route: "user", group: "login", isMember: true)],
            table: ["home", "user", "files"], groups: ["user": ["login"]]),
    ]

    @Test(arguments: cases)
    func theLayerLiesOverTheTable(_ test: Case) throws {
        var layer = AppRoutes()
        try layer.add(test.routes)
        for membership in test.memberships {
            try layer.setMembership(route: membership.route, group: membership.group, isMember: membership.isMember)
        }
        let decider = try Decider(routes: Self.table, appRoutes: layer)
        #expect(decider.routes.routes.map(\.name) == test.table)
        #expect(decider.setAsideRoutes.map(\.route.name) == test.setAside)
        for (route, groups) in test.groups {
            #expect(decider.routes.route(named: route)?.groups == groups, "\(route)")
            let alone = try #require(Self.table.route(named: route) ?? layer.route(named: route))
            #expect(layer.groups(of: alone) == groups, "\(route)")
        }
        #expect(decider.appRoutes == layer)
    }

    @Test func aSetMembershipReplacesTheEarlierOneAndCanBeCleared() throws {
        var layer = AppRoutes()
        try layer.setMembership(route: "home", group: "login", isMember: true)
        try layer.setMembership(route: "home", group: "login", isMember: false)
        #expect(layer.memberships == [.init(route: "home", group: "login", isMember: false)])
        let cleared = layer.clearMembership(route: "home", group: "login")
        #expect(cleared)
        #expect(layer.isEmpty)
        let clearedAgain = layer.clearMembership(route: "home", group: "login")
        #expect(!clearedAgain)
    }

    @Test func theLayerIsBounded() throws {
        var layer = AppRoutes()
        let many = (0..<AppRoutes.maximumRoutes).map { Route(name: "r\($0)", pattern: "myapp://r/\($0)") }
        try layer.add(many)
        #expect {
            try layer.add(Route(name: "one.more", pattern: "myapp://one/more"))
        } throws: { error in
            (error as? RouteTableError)?.diagnostics.first?.message.contains("at most 10000 are kept") == true
        }
        #expect(layer.routes.count == AppRoutes.maximumRoutes)
        for index in 0..<AppRoutes.maximumMemberships {
            try layer.setMembership(route: "r\(index)", group: "g", isMember: true)
        }
        #expect(throws: RouteTableError.self) { try layer.setMembership(route: "r0", group: "h", isMember: true) }
        // Replacing a membership the layer has is no new one.
        try layer.setMembership(route: "r0", group: "g", isMember: false)
        // Laid over a table, 10,000 memberships cost one pass, not one per route.
        let decider = try Decider(routes: Self.table, appRoutes: layer)
        #expect(decider.routes.routes.count == 3 + AppRoutes.maximumRoutes)
        #expect(decider.routes.route(named: "r1")?.groups == ["g"])
    }
}
