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
    ///   `**` not last, defaults of the wrong type, a control character (``ControlCharacters``)
    ///   in a name, a parameter's name, a default or a pattern.
    public func build() throws(RouteTableError) -> RouteTable {
        // Counted before a single expansion is made: the table's, then each route's.
        let counts = try expansionCounts()
        var diagnostics: [Diagnostic] = []
        var patterns: [RoutePattern] = []
        patterns.reserveCapacity(routes.count)
        var indexByName: [String: Int] = [:]
        indexByName.reserveCapacity(routes.count)
        var firstByShape: [PatternShape: Int] = [:]
        firstByShape.reserveCapacity(routes.count)

        for (routeIndex, route) in routes.enumerated() {
            func report(_ message: String, at location: SourceLocation? = nil) {
                diagnostics.append(Diagnostic(.error, message, at: location ?? route.location, route: route.name))
            }
            if let (scalar, _) = ControlCharacters.first(in: route.name) {
                report(
                    "route name \"\(ControlCharacters.escaped(route.name))\" holds the control character \(ControlCharacters.name(scalar)); a name is one line of visible characters"
                )
            } else if !Self.isValidName(route.name) {
                report("route name \"\(route.name)\" must be non-empty and without spaces")
            } else if let first = indexByName[route.name] {
                report(
                    "duplicate route name \"\(route.name)\" (first declared at \(routes[first].location?.description ?? "an earlier route")); rename one"
                )
            } else {
                indexByName[route.name] = routeIndex
            }
            checkParameters(of: route, report: report)

            if let count = counts[routeIndex], count > options.maximumExpansionsPerRoute {
                report(
                    "the optional groups of \"\(ControlCharacters.escaped(route.pattern))\" expand to \(count == Int.max ? "more than \(options.maximumExpansionsPerRoute)" : "\(count)") patterns, more than the \(options.maximumExpansionsPerRoute) a route may (RouteTableOptions.maximumExpansionsPerRoute); split the route",
                    at: route.patternLocation)
                continue
            }
            let pattern: RoutePattern
            do {
                pattern = try RoutePattern(
                    route.pattern, hostAsPath: options.hostAsPath, maximumExpansions: options.maximumExpansionsPerRoute)
            } catch {
                report(
                    "invalid pattern \"\(ControlCharacters.escaped(route.pattern))\": \(error.message)",
                    at: patternLocation(of: route, offset: error.offset))
                continue
            }
            patterns.append(pattern)
            for expansion in pattern.expansions {
                let shape = normalisedShape(pattern, expansion, route)
                if let firstIndex = firstByShape[shape] {
                    if firstIndex == routeIndex {
                        report(
                            "the optional groups of \"\(route.pattern)\" expand to the same pattern twice; make the groups distinct",
                            at: route.patternLocation)
                    } else {
                        let first = routes[firstIndex]
                        let variant = pattern.expansions.count > 1 ? " (one of its optional-group expansions)" : ""
                        report(
                            "pattern \"\(route.pattern)\"\(variant) is the same as route \"\(first.name)\"'s \"\(first.pattern)\"\(first.patternLocation.map { " at \($0)" } ?? ""); only one of them could ever match — remove one or make them differ",
                            at: route.patternLocation)
                    }
                    break
                }
                firstByShape[shape] = routeIndex
            }
        }
        guard diagnostics.isEmpty else { throw RouteTableError(diagnostics) }
        return RouteTable(options: options, routes: routes, patterns: patterns, indexByName: indexByName)
    }

    /// Compiles routes that passed ``build()`` before — the same routes, from the same
    /// bytes, under the same limits (a device re-opening an update it accepted, its hash
    /// checked and its acceptance stamped) — without checking them again: their patterns
    /// parsed and their trie built, no names, parameters, shapes or expansions compared.
    /// Should a pattern not parse after all, this is ``build()``, with its diagnostics.
    /// - Returns: The table.
    /// - Throws: What ``build()`` throws, when a pattern does not parse.
    package func buildValidatedBefore() throws(RouteTableError) -> RouteTable {
        var patterns: [RoutePattern] = []
        patterns.reserveCapacity(routes.count)
        var indexByName: [String: Int] = [:]
        indexByName.reserveCapacity(routes.count)
        for (index, route) in routes.enumerated() {
            guard
                let pattern = try? RoutePattern(
                    route.pattern, hostAsPath: options.hostAsPath, maximumExpansions: options.maximumExpansionsPerRoute)
            else { return try build() }
            patterns.append(pattern)
            if indexByName[route.name] == nil { indexByName[route.name] = index }
        }
        return RouteTable(options: options, routes: routes, patterns: patterns, indexByName: indexByName)
    }

    /// How many patterns each route expands to (`nil` for one that does not parse: its parse
    /// says why), counted from the patterns' text without expanding them.
    /// - Throws: `RouteTableError` when together they make more than
    ///   ``RouteTableOptions/maximumExpansions``, at the route that crosses it.
    private func expansionCounts() throws(RouteTableError) -> [Int?] {
        var counts: [Int?] = []
        counts.reserveCapacity(routes.count)
        // A route past its own cap is refused alone and never expanded: it counts here as
        // one over that cap, so one such route is its own error and a table of them one error.
        let clip = min(options.maximumExpansionsPerRoute, Int.max - 1) + 1
        var total = 0
        var clipped = false
        var first: Int?
        for route in routes {
            let count = RoutePattern.expansionCount(
                of: route.pattern, hostAsPath: options.hostAsPath, maximumExpansions: options.maximumExpansionsPerRoute)
            counts.append(count)
            clipped = clipped || (count ?? 1) > clip
            let (sum, overflow) = total.addingReportingOverflow(min(count ?? 1, clip))
            total = overflow ? Int.max : sum
            if first == nil, total > options.maximumExpansions { first = counts.count - 1 }
        }
        guard let first else { return counts }
        let route = routes[first]
        throw RouteTableError([
            Diagnostic(
                .error,
                "the \(routes.count) routes expand to \(clipped ? "at least " : "")\(total) patterns, more than the \(options.maximumExpansions) a table may (RouteTableOptions.maximumExpansions); route \"\(ControlCharacters.escaped(route.name))\" is the first past it — drop optional groups or split the table",
                at: route.patternLocation ?? route.location, route: route.name)
        ])
    }

    /// Whether `name` is non-empty and has no white space (Unicode's `White_Space`).
    private static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        var name = name
        // Names are ASCII in practice: their bytes answer without Unicode property lookups.
        let ascii: Bool? = name.withUTF8 { bytes in
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D) { return false }
            }
            return true
        }
        return ascii ?? !name.unicodeScalars.contains(where: \.properties.isWhitespace)
    }

    private func checkParameters(of route: Route, report: (String, SourceLocation?) -> Void) {
        // Names and defaults end up in generated code and messages: none may hold a
        // control character (a newline in a default became a line of Swift).
        for returned in route.returns {
            if let (scalar, _) = ControlCharacters.first(in: returned.name) {
                report(
                    "returned field \"\(ControlCharacters.escaped(returned.name))\" holds the control character \(ControlCharacters.name(scalar)); a name is one line of visible characters",
                    route.location)
            }
        }
        var seen = Set<String>()
        for parameter in route.parameters {
            let name = ControlCharacters.escaped(parameter.name)
            if let (scalar, _) = ControlCharacters.first(in: parameter.name) {
                report(
                    "parameter \"\(name)\" holds the control character \(ControlCharacters.name(scalar)); a name is one line of visible characters",
                    route.location)
            }
            if !seen.insert(parameter.name).inserted {
                report("parameter \"\(name)\" is declared twice; keep one declaration", route.location)
            }
            if let value = parameter.defaultValue {
                if value.type != parameter.type {
                    report(
                        "default \(ControlCharacters.escaped(value.description)) of parameter \"\(name)\" is not \(parameter.type.rawValue)",
                        route.location)
                }
                if parameter.isRequired {
                    report(
                        "parameter \"\(name)\" is required and has a default; a default makes it optional — drop one",
                        route.location)
                }
                if let (scalar, _) = ControlCharacters.first(in: value.description) {
                    report(
                        "default \"\(ControlCharacters.escaped(value.description))\" of parameter \"\(name)\" holds the control character \(ControlCharacters.name(scalar)); write the value without it",
                        route.location)
                }
            }
        }
    }

    /// The shape the table compares `expansion` of `pattern` by.
    private func normalisedShape(_ pattern: RoutePattern, _ expansion: [PatternSegment], _ route: Route) -> PatternShape
    {
        var shape = PatternShape(scheme: pattern.scheme, host: pattern.host)
        for segment in expansion {
            switch segment {
            case .constant(let text):
                shape.appendConstant(options.caseSensitive ? text : text.lowercased())
            case .parameter(let name, let regex):
                shape.appendParameter(route.parameter(named: name)?.type ?? .string, regex: regex)
            case .wildcard:
                shape.appendWildcard()
            case .catchAll:
                shape.appendCatchAll()
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
