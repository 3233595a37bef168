import JunctionCore
import JunctionLua

/// Which interceptors and policies run for each route, in order, worked out once when
/// the decider is built: global ones by priority, then the policies of the route's
/// groups in the order the route lists them, then the route's own interceptors by
/// priority.
///
/// A route interceptor names its routes by route name or by pattern. A pattern equal to
/// a route's own pattern binds to that route here; any other pattern is compiled into
/// ``patternTable`` and matched against each request's URL, and the interceptor applies
/// when it matches.
final class InterceptorPlan: Sendable {
    /// The steps for each route of the table, by route index, without pattern-matched ones.
    let chains: [[PolicyStep]]
    /// The patterns of route interceptors that bind by URL; route `i` holds
    /// ``patternSteps`` `[i]`.
    let patternTable: RouteTable?
    let patternSteps: [[PolicyStep]]
    /// Every group a policy exists for.
    let policyGroups: Set<String>

    /// Works out the chains.
    /// - Throws: `BundleError` for an interceptor pattern that does not compile.
    init(
        routes: RouteTable, declarations: RuleDeclarations, swift: [SwiftInterceptor], bundleOnError: RuleErrorPolicy,
        directory: String?
    ) throws(BundleError) {
        var order = 0
        var globals: [PolicyStep] = []
        var groupSteps: [String: [PolicyStep]] = [:]
        var routeSteps: [(targets: [String], step: PolicyStep, location: String)] = []

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
            switch interceptor.scope {
            case .all: globals.append(step(.global))
            case .route(let target): routeSteps.append(([target], step(.route), interceptor.location))
            case .routes(let targets): routeSteps.append((targets, step(.route), interceptor.location))
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
            case .route(let target): routeSteps.append(([target], step(.route, interceptor.name), "swift"))
            case .routes(let targets): routeSteps.append((targets, step(.route, interceptor.name), "swift"))
            }
        }
        globals.sort { $0.runsBefore($1) }

        // A target is a route name, else a route's exact pattern, else a pattern matched per URL.
        // Targets are names in most bundles: the patterns are indexed when one is not.
        var indexByPattern: [String: Int]?
        func index(ofPattern pattern: String) -> Int? {
            if indexByPattern == nil {
                var index: [String: Int] = [:]
                index.reserveCapacity(routes.routes.count)
                for (position, route) in routes.routes.enumerated() where index[route.pattern] == nil {
                    index[route.pattern] = position
                }
                indexByPattern = index
            }
            return indexByPattern?[pattern]
        }
        var bound = Array(repeating: [PolicyStep](), count: routes.routes.count)
        var patternOrder: [String] = []
        var patternSteps: [String: [PolicyStep]] = [:]
        var patternLocations: [String: String] = [:]
        for (targets, step, location) in routeSteps {
            for target in targets {
                if let index = routes.index(ofRouteNamed: target) ?? index(ofPattern: target) {
                    bound[index].append(step)
                    continue
                }
                if patternSteps[target] == nil {
                    patternOrder.append(target)
                    patternLocations[target] = location
                }
                patternSteps[target, default: []].append(step)
            }
        }

        var builder = RouteTableBuilder(options: routes.options)
        for (index, pattern) in patternOrder.enumerated() {
            var route = Route(name: "interceptor#\(index)", pattern: pattern)
            route.location = patternLocations[pattern].flatMap { SourceLocation(declaredAt: $0, in: directory) }
            builder.add(route)
        }
        do {
            patternTable = patternOrder.isEmpty ? nil : try builder.build()
        } catch {
            throw BundleError(
                error.diagnostics.map { diagnostic in
                    var diagnostic = diagnostic
                    diagnostic.message =
                        "in an interceptor's route pattern (neither a route name nor a valid pattern): "
                        + diagnostic.message
                    diagnostic.route = nil
                    return diagnostic
                })
        }
        self.patternSteps = patternOrder.map { patternSteps[$0] ?? [] }
        policyGroups = Set(groupSteps.keys)
        // Sorted once per group, not once per route that lists the group.
        let sortedGroupSteps = groupSteps.mapValues { $0.sorted { $0.runsBefore($1) } }
        chains = routes.routes.enumerated().map { index, route in
            var chain = globals
            for group in route.groups { chain += sortedGroupSteps[group] ?? [] }
            chain += bound[index].sorted { $0.runsBefore($1) }
            return chain
        }
    }

    /// The steps for a match: its route's chain, with the pattern-bound route
    /// interceptors that match its URL merged into the route stage by priority.
    func chain(for match: RouteMatch) -> [PolicyStep] {
        let chain = chains[match.routeIndex]
        guard let patternTable else { return chain }
        let extra = patternTable.matches(match.uri).flatMap { patternSteps[$0.routeIndex] }
        guard !extra.isEmpty else { return chain }
        let split = chain.firstIndex { $0.stage == .route } ?? chain.endIndex
        return Array(chain[..<split]) + (Array(chain[split...]) + extra).sorted { $0.runsBefore($1) }
    }
}
