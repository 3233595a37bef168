import JunctionCore
import Junction

/// Where a redirect to a URL ends, as the checks of redirects that leave policies see it
/// (``RedirectPolicyCheck``, ``ReturnedRedirectPolicyCheck``): the route that opens the
/// URL, or the dispatcher a scheme is handed to, after the declared redirects that take
/// it further.
///
/// Declared redirects are followed while none has a `when` (whether it applies is then
/// not known) and the decider's redirect limit is not reached.
struct RedirectLanding {
    /// What opens the URL.
    enum Place {
        /// A route, whose group policies run there.
        case route(Route)
        /// The dispatcher of this scheme, where no policy runs.
        case dispatcher(String)
    }

    /// The URL reached.
    var url: String
    /// The URLs declared redirects took it from on the way, the first target first; empty
    /// when it was reached directly.
    var passed: [String]
    /// What opens it.
    var place: Place

    /// Where a redirect to `target` ends; `nil` when that cannot be known: the URL does
    /// not parse, a declared redirect with a `when` takes it, the chain reaches the limit,
    /// or nothing opens it (``RedirectTargetCheck`` reports that of declared redirects).
    /// - Parameters:
    ///   - target: The redirect's URL.
    ///   - hops: The redirects the request has taken, this one included.
    init?(
        _ target: String, hops: Int, routes: RouteTable, redirects: RedirectRules, maximumRedirects: Int
    ) {
        var url = target
        var passed: [String] = []
        var hops = hops
        while true {
            guard let uri = try? URI(url) else { return nil }
            if let table = redirects.table, let next = table.match(uri) {
                guard hops < maximumRedirects, let further = redirects.rulesByRoute[next.routeIndex].first,
                    further.condition == nil
                else { return nil }
                passed.append(url)
                url = redirects.target(of: further, for: next)
                hops += 1
                continue
            }
            if let reached = routes.match(uri) {
                place = .route(routes.routes[reached.routeIndex])
            } else if let scheme = uri.scheme?.lowercased(), routes.options.dispatchedSchemes.contains(scheme) {
                place = .dispatcher(scheme)
            } else {
                return nil
            }
            self.url = url
            self.passed = passed
            return
        }
    }

    /// The groups whose policies run where it lands: the route's, or none at a dispatcher.
    var groups: [String] {
        if case .route(let route) = place { route.groups } else { [] }
    }
}
