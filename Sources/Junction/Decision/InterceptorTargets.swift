import JunctionCore
import JunctionLua

/// Where one route interceptor applies, as written: the route names it gives
/// (`route =`, `routes =`) and the URL patterns (`pattern =`, `patterns =`).
///
/// The two are kept apart on purpose: `route = "myapp://wallet"` once guarded only the
/// bare URL of a route meant as a whole (`myapp://wallet/**`). A name that designates no
/// route is an error that names the route most likely meant.
struct InterceptorTargets {
    /// The route names.
    var names: [String] = []
    /// The URL patterns.
    var patterns: [String] = []
    /// The interceptor's name, for messages.
    var interceptor: String
    /// Where it was declared: `"file.lua:12"`, or `"swift"`.
    var location: String
    /// How its names were given, for messages: `route =`, `routes =`, `.route(…)`.
    var spelling: String

    /// The targets of a Lua interceptor; `nil` for `all = true`.
    init?(_ scope: RuleDeclarations.Scope, of interceptor: String, at location: String) {
        self.interceptor = interceptor
        self.location = location
        switch scope {
        case .all: return nil
        case .route(let name): (names, spelling) = ([name], "route =")
        case .routes(let list): (names, spelling) = (list, "routes =")
        case .pattern(let pattern): (patterns, spelling) = ([pattern], "pattern =")
        case .patterns(let list): (patterns, spelling) = (list, "patterns =")
        }
    }

    /// The targets of a Swift interceptor given by route names.
    init(swift: SwiftInterceptor, names: [String]) {
        self.names = names
        interceptor = swift.name
        location = "swift"
        spelling = names.count == 1 ? "scope .route" : "scope .routes"
    }

    /// The targets of a Swift interceptor given by URL patterns.
    init(swift: SwiftInterceptor, patterns: [String]) {
        self.patterns = patterns
        interceptor = swift.name
        location = "swift"
        spelling = patterns.count == 1 ? "scope .pattern" : "scope .patterns"
    }

    /// How many names that designate no route are explained one by one (each looks for
    /// the route meant among all routes); the rest are counted.
    static let unknownNamesExplained = 20

    /// The error for `name`, which names no route of `routes`: the route most likely meant —
    /// the one whose pattern it is, or that matches it as a URL, or whose name is spelt
    /// nearly so — and what to write instead.
    func unknownRoute(
        _ name: String, in routes: RouteTable, directory: String?, sources: [RuleSource]
    ) -> Diagnostic {
        let isSwift = location == "swift"
        let nameForm = isSwift ? ".route(\"NAME\")" : "route = \"NAME\""
        // A bundle's text is untrusted: a megabyte of name gives a message of ordinary length.
        let shown = MessageText.quoted(name)
        let patternForm = isSwift ? ".pattern(\(shown))" : "pattern = \(shown)"
        let subject = names.count == 1 ? "\(spelling) \(shown)" : "\(shown) in \(spelling) { … }"
        var message = "interceptor \"\(interceptor)\": \(subject) "
        if name.contains("://") || name.hasPrefix("/") {
            message += "is a URL pattern, but \(spelling) takes route names"
            if let meant = Self.route(designatedBy: name, in: routes) {
                message +=
                    "; the route \"\(meant.name)\" (\(meant.pattern)) matches it: write "
                    + "\(nameForm.replacingOccurrences(of: "NAME", with: meant.name)) to guard that whole route, "
                    + "or \(patternForm) to guard only the URLs this pattern matches"
            } else {
                message += "; write \(patternForm) to guard the URLs it matches"
            }
        } else {
            message +=
                "names no route" + NearestName.suggestion(for: name, among: routes.routes.map(\.name))
                + " (route names are in the route table; for a URL pattern write \(patternForm))"
        }
        let at =
            isSwift
            ? nil
            : SourceLocation(declaredAt: location, in: directory, pointingAt: name, sources: sources)
        return Diagnostic(.error, message, at: at ?? SourceLocation(file: location, line: 1, column: 1))
    }

    /// The route a pattern-like text most likely stands for: the route with exactly that
    /// pattern, else the route that decides it read as a URL.
    private static func route(designatedBy text: String, in routes: RouteTable) -> Route? {
        if let same = routes.routes.first(where: { $0.pattern == text }) { return same }
        guard let uri = try? URI(text), let match = routes.match(uri) else { return nil }
        return routes.routes[match.routeIndex]
    }
}
