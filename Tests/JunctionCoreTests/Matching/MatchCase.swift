import JunctionCore

/// One row of a matching table: a URL and what it should match.
struct MatchCase: CustomTestStringConvertible, Sendable {
    let url: String
    /// The route expected, or `nil` for no match.
    let route: String?
    /// Path parameters expected (all of them).
    let parameters: [String: String]

    init(_ url: String, _ route: String?, _ parameters: [String: String] = [:]) {
        self.url = url
        self.route = route
        self.parameters = parameters
    }

    var testDescription: String { "\(url) → \(route ?? "no match")" }
}

import Testing

extension RouteTable {
    /// A table from `(name, pattern)` pairs, for tests.
    static func make(_ routes: [(String, String)], options: RouteTableOptions = RouteTableOptions()) throws
        -> RouteTable
    {
        try RouteTable(routes: routes.map { Route(name: $0.0, pattern: $0.1) }, options: options)
    }

    /// Checks one case and reports in its terms.
    func expect(_ row: MatchCase, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let match = try match(row.url)
        #expect(match?.route.name == row.route, "\(row.url)", sourceLocation: sourceLocation)
        if let match, row.route != nil {
            #expect(match.parameters.dictionary == row.parameters, "\(row.url)", sourceLocation: sourceLocation)
        }
    }
}
