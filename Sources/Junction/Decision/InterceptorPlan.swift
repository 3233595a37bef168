package import JunctionCore
package import JunctionLua

/// Which interceptors and policies run for each route, in order, worked out once when
/// the decider is built: global ones by priority, then the policies of the route's
/// groups in the order the route lists them, then the route's own interceptors by
/// priority.
///
/// A route interceptor names its routes (`route =`, `routes =`), which bind here, or
/// gives URL patterns (`pattern =`, `patterns =`), which are compiled into
/// ``patternTable`` and matched against each request's URL: the interceptor applies to
/// whatever route decides a URL its pattern matches.
package final class InterceptorPlan: Sendable {
    /// The steps for each route of the table, by route index, without pattern-matched ones.
    package let chains: [[PolicyStep]]
    /// The patterns of route interceptors that bind by URL; route `i` holds
    /// ``patternSteps`` `[i]`.
    package let patternTable: RouteTable?
    package let patternSteps: [[PolicyStep]]
    /// Every group a policy exists for.
    package let policyGroups: Set<String>

    /// Works out the chains.
    /// - Parameters:
    ///   - sources: The bundle's Lua files, to point at the column of a name that
    ///     designates no route.
    ///   - validatedBefore: Whether the bundle and these interceptors were compiled together
    ///     before, from the same bytes (an update re-opened under its acceptance stamp): the
    ///     interceptors' patterns are then not compared with each other again.
    /// - Throws: `BundleError` for a route name that names no route, or an interceptor
    ///   pattern that does not compile.
    package init(
        routes: RouteTable, declarations: RuleDeclarations, swift: [SwiftInterceptor], bundleOnError: RuleErrorPolicy,
        directory: String?, sources: [RuleSource] = [], validatedBefore: Bool = false
    ) throws(BundleError) {
        var order = 0
        var globals: [PolicyStep] = []
        var groupSteps: [String: [PolicyStep]] = [:]
        var routeSteps: [(targets: InterceptorTargets, step: PolicyStep)] = []

        func next() -> Int {
            order += 1
            return order
        }
        for interceptor in declarations.interceptors {
            let onError = interceptor.onError ?? bundleOnError
            func step(_ stage: TraceStep.Stage) -> PolicyStep {
                PolicyStep(
                    stage: stage, name: interceptor.name, location: interceptor.location,
                    priority: interceptor.priority,
                    onError: onError, body: .lua(interceptor.function), order: next())
            }
            if let targets = InterceptorTargets(interceptor.scope, of: interceptor.name, at: interceptor.location) {
                routeSteps.append((targets, step(.route)))
            } else {
                globals.append(step(.global))
            }
        }
        for policy in declarations.groups {
            groupSteps[policy.name, default: []].append(
                PolicyStep(
                    stage: .group, name: policy.name, location: policy.location, priority: 0, onError: bundleOnError,
                    body: .lua(policy.function), order: next()))
        }
        for interceptor in swift {
            let step = { (stage: TraceStep.Stage, name: String) in
                PolicyStep(
                    stage: stage, name: name, location: "swift", priority: interceptor.priority,
                    onError: interceptor.onError, body: .swift(interceptor.run), order: next())
            }
            switch interceptor.scope {
            case .all: globals.append(step(.global, interceptor.name))
            case .group(let group): groupSteps[group, default: []].append(step(.group, interceptor.name))
            case .route(let name):
                routeSteps.append(
                    (InterceptorTargets(swift: interceptor, names: [name]), step(.route, interceptor.name)))
            case .routes(let names):
                routeSteps.append(
                    (InterceptorTargets(swift: interceptor, names: names), step(.route, interceptor.name)))
            case .pattern(let pattern):
                routeSteps.append(
                    (InterceptorTargets(swift: interceptor, patterns: [pattern]), step(.route, interceptor.name)))
            case .patterns(let patterns):
                routeSteps.append(
                    (InterceptorTargets(swift: interceptor, patterns: patterns), step(.route, interceptor.name)))
            }
        }
        globals.sort { $0.runsBefore($1) }

        var problems: [Diagnostic] = []
        var unknownNames = 0
        var bound = Array(repeating: [PolicyStep](), count: routes.count)
        var patternOrder: [String] = []
        var patternSteps: [String: [PolicyStep]] = [:]
        var patternLocations: [String: String] = [:]
        for (targets, step) in routeSteps {
            for name in targets.names {
                if let index = routes.index(ofRouteNamed: name) {
                    bound[index].append(step)
                } else if unknownNames < InterceptorTargets.unknownNamesExplained {
                    unknownNames += 1
                    problems.append(targets.unknownRoute(name, in: routes, directory: directory, sources: sources))
                } else {
                    unknownNames += 1
                }
            }
            for pattern in targets.patterns {
                if patternSteps[pattern] == nil {
                    patternOrder.append(pattern)
                    patternLocations[pattern] = targets.location
                }
                patternSteps[pattern, default: []].append(step)
            }
        }

        var builder = RouteTableBuilder(options: routes.options)
        for (index, pattern) in patternOrder.enumerated() {
            var route = Route(name: "interceptor#\(index)", pattern: pattern)
            route.location = patternLocations[pattern].flatMap { SourceLocation(declaredAt: $0, in: directory) }
            builder.add(route)
        }
        if unknownNames > InterceptorTargets.unknownNamesExplained, let last = problems.last {
            let more = unknownNames - InterceptorTargets.unknownNamesExplained
            problems.append(
                Diagnostic(
                    .error,
                    "\(more) more route name\(more == 1 ? "" : "s") of interceptors name no route; fix the ones above",
                    at: last.location))
        }
        let built = builder.buildRulePatterns("an interceptor's pattern", validatedBefore: validatedBefore)
        problems += built.problems
        guard problems.isEmpty else { throw BundleError(problems) }
        patternTable = built.table
        self.patternSteps = patternOrder.map { patternSteps[$0] ?? [] }
        policyGroups = Set(groupSteps.keys)
        // Sorted once per group, not once per route that lists the group.
        let sortedGroupSteps = groupSteps.mapValues { $0.sorted { $0.runsBefore($1) } }
        // Routes of the same groups and no interceptor of their own share one chain (a
        // table's thousand routes had each built and kept its own copy); groups are read
        // without compiling a deferred table.
        var chainByGroups: [[String]: [PolicyStep]] = [:]
        chains = (0..<routes.count).map { index in
            let groups = routes.groups(ofRouteAt: index)
            if bound[index].isEmpty, let shared = chainByGroups[groups] { return shared }
            var chain = globals
            for group in groups { chain += sortedGroupSteps[group] ?? [] }
            if bound[index].isEmpty {
                chainByGroups[groups] = chain
                return chain
            }
            chain += bound[index].sorted { $0.runsBefore($1) }
            return chain
        }
    }

    /// The steps for a match: its route's chain, with the pattern-bound route
    /// interceptors that match its URL merged into the route stage by priority.
    package func chain(for match: RouteMatch) -> [PolicyStep] {
        let chain = chains[match.routeIndex]
        guard let patternTable else { return chain }
        let extra = patternTable.matches(match.uri).flatMap { patternSteps[$0.routeIndex] }
        guard !extra.isEmpty else { return chain }
        let split = chain.firstIndex { $0.stage == .route } ?? chain.endIndex
        return Array(chain[..<split]) + (Array(chain[split...]) + extra).sorted { $0.runsBefore($1) }
    }
}
