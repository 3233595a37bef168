package import JunctionCore
package import JunctionLua

/// A bundle's `redirect { ... }` declarations compiled into one route table of their
/// `from` patterns: finding a redirect is a trie match, not a scan of the rules.
package final class RedirectRules: Sendable {
    /// One declaration.
    package struct Rule: Sendable {
        package let from: String
        package let to: String
        package let template: RedirectTemplate
        /// The `when`, a step of its own: the redirect is taken when it holds.
        package let condition: PolicyStep?
        package let keepQuery: Bool
        package let location: String
        /// The name traces show: the `from` pattern.
        package var name: String { from }
    }

    /// The `from` patterns; route `i` holds the rules of ``rulesByRoute`` `[i]`.
    package let table: RouteTable?
    /// The rules of each distinct `from` pattern, in declaration order.
    package let rulesByRoute: [[Rule]]

    /// Compiles the declarations.
    /// - Parameters:
    ///   - declarations: The bundle's redirects.
    ///   - options: The route table's options, so both read URLs alike.
    ///   - onError: What a failing `when` does when its redirect declares no `on_error`:
    ///     the bundle's.
    ///   - directory: The bundle folder, for locations.
    ///   - validatedBefore: Whether these declarations compiled before, from the same bytes
    ///     (their patterns are then not compared with each other again).
    /// - Throws: `BundleError` with a diagnostic at each declaration that does not
    ///   compile: an invalid pattern, a template naming a parameter the pattern lacks.
    package init(
        _ declarations: [RuleDeclarations.Redirect], options: RouteTableOptions, onError: RuleErrorPolicy,
        directory: String?, validatedBefore: Bool = false
    ) throws(BundleError) {
        var problems: [Diagnostic] = []
        var order: [String] = []
        var rules: [String: [Rule]] = [:]
        var firstLocation: [String: String] = [:]
        for (position, declaration) in declarations.enumerated() {
            let location = SourceLocation(declaredAt: declaration.location, in: directory)
            guard let parameters = RouteTable.parameterNames(in: declaration.from, hostAsPath: options.hostAsPath)
            else {
                // The table below reports the pattern's syntax error with its detail.
                if firstLocation[declaration.from] == nil {
                    order.append(declaration.from)
                    firstLocation[declaration.from] = declaration.location
                }
                continue
            }
            let template: RedirectTemplate
            do {
                template = try RedirectTemplate(declaration.to, parameters: parameters)
            } catch {
                problems.append(Diagnostic(.error, "redirect to \"\(declaration.to)\": \(error.message)", at: location))
                continue
            }
            if rules[declaration.from] == nil {
                order.append(declaration.from)
                firstLocation[declaration.from] = declaration.location
            }
            let condition = declaration.condition.map { function in
                PolicyStep(
                    stage: .redirect, name: declaration.from, location: declaration.location, priority: 0,
                    onError: declaration.onError ?? onError, body: .lua(function), order: position)
            }
            rules[declaration.from, default: []].append(
                Rule(
                    from: declaration.from, to: declaration.to, template: template, condition: condition,
                    keepQuery: declaration.keepQuery, location: declaration.location))
        }
        var builder = RouteTableBuilder(options: options)
        for (index, from) in order.enumerated() {
            var route = Route(name: "redirect#\(index)", pattern: from)
            route.location = SourceLocation(declaredAt: firstLocation[from] ?? "", in: directory)
            builder.add(route)
        }
        let built = builder.buildRulePatterns("a redirect's from pattern", validatedBefore: validatedBefore)
        problems += built.problems
        guard problems.isEmpty else { throw BundleError(problems) }
        self.table = built.table
        self.rulesByRoute = order.map { rules[$0] ?? [] }
    }

    /// Whether there are no redirects.
    package var isEmpty: Bool { table == nil }

    /// The target of `rule` for a URL its pattern matched, with the original query
    /// appended when `keep_query` is set.
    package func target(of rule: Rule, for match: RouteMatch) -> String {
        let url = rule.template.expand(match.parameters)
        return rule.keepQuery ? Self.keepingQuery(of: match.uri, in: url) : url
    }

    /// `url` with the query of `uri` appended after its own, before its fragment: what
    /// `keep_query` does, for a declared redirect and a redirect verdict alike. A name in
    /// both queries is there twice, the target's first, so whoever reads a name's first
    /// value (`req.query`, a route's query parameters) reads the target's.
    package static func keepingQuery(of uri: URI, in url: String) -> String {
        guard let query = uri.percentEncodedQuery, !query.isEmpty else { return url }
        let (base, fragment) = splitFragment(url)
        return base + (base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?") + query
            + fragment
    }

    private static func splitFragment(_ url: String) -> (String, String) {
        guard let hash = url.firstIndex(of: "#") else { return (url, "") }
        return (String(url[..<hash]), String(url[hash...]))
    }
}
