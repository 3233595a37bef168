/// Collects routes and builds a validated, immutable ``RouteTable``.
///
/// ```swift
/// var builder = RouteTableBuilder()
/// builder.add(Route(name: "user", pattern: "myapp://user/:id",
///                   parameters: [ParameterDeclaration("id", type: .int)]))
/// let table = try builder.build()
/// ```
public struct RouteTableBuilder: Sendable {
    /// How the table will read URLs.
    public var options: RouteTableOptions
    /// The routes added so far, in registration order.
    public private(set) var routes: [Route] = []

    /// Creates an empty builder.
    /// - Parameter options: How the table will read URLs.
    public init(options: RouteTableOptions = RouteTableOptions()) {
        self.options = options
    }

    /// Adds a route after those already added.
    /// - Parameter route: The route.
    public mutating func add(_ route: Route) {
        routes.append(route)
    }

    /// Validates every route and compiles the table.
    /// - Returns: The table.
    /// - Throws: `RouteTableError` with every problem found: duplicate names, patterns
    ///   equal after normalisation, a parameter named twice, a regex that does not compile,
    ///   `**` not last, defaults of the wrong type.
    public func build() throws(RouteTableError) -> RouteTable {
        var diagnostics: [Diagnostic] = []
        var patterns: [RoutePattern] = []
        var firstByName: [String: Route] = [:]
        var firstByShape: [[String]: (route: Route, index: Int)] = [:]

        for (routeIndex, route) in routes.enumerated() {
            func report(_ message: String, at location: SourceLocation? = nil) {
                diagnostics.append(Diagnostic(.error, message, at: location ?? route.location, route: route.name))
            }
            if route.name.isEmpty || route.name.unicodeScalars.contains(where: \.properties.isWhitespace) {
                report("route name \"\(route.name)\" must be non-empty and without spaces")
            } else if let first = firstByName[route.name] {
                report("duplicate route name \"\(route.name)\" (first declared at \(first.location?.description ?? "an earlier route")); rename one")
            } else {
                firstByName[route.name] = route
            }
            checkParameters(of: route, report: report)

            let pattern: RoutePattern
            do {
                pattern = try RoutePattern(route.pattern, hostAsPath: options.hostAsPath)
            } catch {
                report("invalid pattern \"\(route.pattern)\": \(error.message)", at: patternLocation(of: route, offset: error.offset))
                continue
            }
            patterns.append(pattern)
            for expansion in pattern.expansions {
                let shape = normalisedShape(pattern, expansion, route)
                if let first = firstByShape[shape] {
                    if first.index == routeIndex {
                        report("the optional groups of \"\(route.pattern)\" expand to the same pattern twice; make the groups distinct", at: route.patternLocation)
                    } else {
                        let variant = pattern.expansions.count > 1 ? " (one of its optional-group expansions)" : ""
                        report("pattern \"\(route.pattern)\"\(variant) is the same as route \"\(first.route.name)\"'s \"\(first.route.pattern)\"\(first.route.patternLocation.map { " at \($0)" } ?? ""); only one of them could ever match — remove one or make them differ", at: route.patternLocation)
                    }
                    break
                }
                firstByShape[shape] = (route, routeIndex)
            }
        }
        guard diagnostics.isEmpty else { throw RouteTableError(diagnostics) }
        return RouteTable(options: options, routes: routes, patterns: patterns)
    }

    private func checkParameters(of route: Route, report: (String, SourceLocation?) -> Void) {
        var seen = Set<String>()
        for parameter in route.parameters {
            if !seen.insert(parameter.name).inserted {
                report("parameter \"\(parameter.name)\" is declared twice; keep one declaration", route.location)
            }
            if let value = parameter.defaultValue {
                if value.type != parameter.type {
                    report("default \(value) of parameter \"\(parameter.name)\" is not \(parameter.type.rawValue)", route.location)
                }
                if parameter.isRequired {
                    report("parameter \"\(parameter.name)\" is required and has a default; a default makes it optional — drop one", route.location)
                }
            }
        }
    }

    /// The pattern with parameter names erased and constants folded as the table compares
    /// them: two routes with the same shape could never both be reached.
    private func normalisedShape(_ pattern: RoutePattern, _ expansion: [PatternSegment], _ route: Route) -> [String] {
        var shape = [pattern.scheme.map { "scheme " + $0 } ?? "global", pattern.host.map { "host " + $0 } ?? "no host"]
        for segment in expansion {
            switch segment {
            case .constant(let text):
                shape.append("=" + (options.caseSensitive ? text : text.lowercased()))
            case .parameter(let name, let regex):
                let type = route.parameter(named: name)?.type ?? .string
                shape.append(":" + type.rawValue + (regex.map { "(\($0))" } ?? ""))
            case .wildcard:
                shape.append("*")
            case .catchAll:
                shape.append("**")
            }
        }
        return shape
    }

    /// Where in the file an offset into the pattern text lies.
    private func patternLocation(of route: Route, offset: Int) -> SourceLocation? {
        guard var location = route.patternLocation else { return route.location }
        let prefix = route.pattern.utf8.prefix(offset)
        location.column += String(decoding: prefix, as: UTF8.self).unicodeScalars.count
        return location
    }
}
