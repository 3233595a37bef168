import Foundation
import JunctionAuthoring
@testable import JunctionCore
import JunctionTestSupport
import Testing

/// Caps on what optional groups expand to, per route and per table, refused at load with
/// the place and the count before a single expansion is made.
@Suite struct RouteTableExpansionCapTests {
    static func sixGroups(_ index: Int) -> String { "/r\(index)(/a)(/b)(/c)(/d)(/e)(/f)" }

    static let tableMessage =
        #"the 100000 routes expand to 6400000 patterns, more than the 100000 a table may (RouteTableOptions.maximumExpansions); route "r1562" is the first past it — drop optional groups or split the table"#

    /// Regression (issue 27, item 6): 100,000 routes with six optional groups each took
    /// 41 s and 4.46 GB to load, from YAML and from a signed `routes.json`. The count is
    /// worked out from the patterns' text, so the refusal costs a pass over them.
    @Test func aTableOf100000RoutesWithSixGroupsEachIsRefusedWithItsCount() throws {
        let routes = (0..<100_000).map { Route(name: "r\($0)", pattern: Self.sixGroups($0)) }
        let error = #expect(throws: RouteTableError.self) { try RouteTable(routes: routes) }
        #expect(error?.description == "route \"r1562\": error: " + Self.tableMessage)
    }

    @Test func theSameTableAsASignedRoutesJSONIsRefusedAtTheRouteThatCrossesTheCap() throws {
        var json = #"{"options":{},"routes":["#
        for index in 0..<100_000 {
            if index > 0 { json += "," }
            json +=
                #"{"location":"routes.yaml:\#(2 * index + 2):5","name":"r\#(index)","pattern":"\#(Self.sixGroups(index))"}"#
        }
        json += "]}"
        let error = #expect(throws: CanonicalJSONError.self) { try RouteTable(canonicalJSON: Array(json.utf8)) }
        #expect(error?.description == "routes.json: routes: routes.yaml:3126:5: error: " + Self.tableMessage)
    }

    @Test func aRoutePastItsCapIsRefusedWithItsPlaceAndCount() {
        let yaml =
            "routes:\n  - name: a\n    pattern: /a(/b)(/c)(/d)(/e)(/f)(/g)(/h)\n  - name: ok\n    pattern: /ok(/x)\n"
        let error = #expect(throws: RouteTableError.self) { try RouteTable.load(text: yaml, file: "t.yaml") }
        #expect(
            error?.diagnostics.map(\.description) == [
                #"t.yaml:3:14: error: the optional groups of "/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)" expand to 128 patterns, more than the 64 a route may (RouteTableOptions.maximumExpansionsPerRoute); split the route"#
            ])
    }

    /// A route nested past the cap, or with more groups than an `Int` counts, is its own
    /// error, not the table's.
    @Test(arguments: [
        ("/x" + String(repeating: "(/a", count: 100) + String(repeating: ")", count: 100), "more than 64"),
        ("/x" + (0..<70).map { "(/g\($0))" }.joined(), "more than 64"),
        ("/x" + (0..<40).map { "(/g\($0))" }.joined(), "1099511627776"),
    ])
    func aHugeRouteIsRefusedAloneUnexpanded(_ pattern: String, _ count: String) throws {
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable(routes: [Route(name: "a", pattern: pattern), Route(name: "b", pattern: "/b")])
        }
        #expect(error?.diagnostics.count == 1)
        let message = error?.diagnostics.first?.message ?? ""
        #expect(message.hasPrefix("the optional groups of"), "\(message)")
        #expect(message.contains("expand to \(count) patterns"), "\(message)")
    }

    @Test func theCapsAreOptions() throws {
        let seven = Route(name: "a", pattern: "/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)")
        let table = try RouteTable(routes: [seven], options: RouteTableOptions(maximumExpansionsPerRoute: 128))
        #expect(try table.match("/a/b/h")?.route.name == "a")
        let fifteen = (0..<15).map { Route(name: "r\($0)", pattern: Self.sixGroups($0)) }
        let options = RouteTableOptions(maximumExpansions: 960)
        #expect(try RouteTable(routes: fifteen, options: options).routes.count == 15)
        let error = #expect(throws: RouteTableError.self) {
            try RouteTable(routes: fifteen + [Route(name: "x", pattern: "/x")], options: options)
        }
        #expect(
            error?.diagnostics.first?.message
                == #"the 16 routes expand to 961 patterns, more than the 960 a table may (RouteTableOptions.maximumExpansions); route "x" is the first past it — drop optional groups or split the table"#
        )
    }

    /// The count agrees with the expansions the parser makes, on every spelling of groups
    /// (after a segment, after "/", for the host, nested, next to regexes).
    @Test func theCountIsTheNumberOfExpansions() throws {
        var random = SplitMix64(seed: 27)
        var parsedCount = 0
        var grouped = 0
        for _ in 0..<20_000 {
            let pattern = Self.randomPattern(&random)
            let count = RoutePattern.expansionCount(of: pattern, hostAsPath: .auto)
            guard let parsed = try? RoutePattern(pattern, hostAsPath: .auto) else { continue }
            parsedCount += 1
            if parsed.expansions.count > 1 { grouped += 1 }
            #expect(count == parsed.expansions.count, "\(pattern)")
        }
        #expect(parsedCount > 2_000 && grouped > 1_000, "\(parsedCount) parsed, \(grouped) with groups")
    }

    static func randomPattern(_ random: inout SplitMix64) -> String {
        let pieces = [
            "/a", "/:p", "/:q([0-9]+)", "/:r(a(b)c)", "(/g", "(h/", ")", "/", "/*", "/(x/)", "(/y)", "/:s(/t)",
            "/:u([)]/)", "/**",
        ]
        var text = random.pick(["myapp://", "myapp://host", "/", "myapp://:h", "myapp://(k/)"])
        for _ in 0..<random.next(below: 8) { text += random.pick(pieces) }
        return text
    }
}
