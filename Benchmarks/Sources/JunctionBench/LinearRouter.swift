import Foundation

/// The baseline: a JLRoutes-style router that tries every route in registration order,
/// comparing the request's path component by component; the first match wins.
///
/// It is given a fair chance: routes are pre-split, a route whose component count
/// cannot fit is skipped before comparing (as JLRoutes does), and captures are only
/// copied into a dictionary for the route that matches.
struct LinearRouter {
    /// One component of a route.
    enum Component {
        case constant(String)
        case parameter(String)
        /// `*`: any one segment.
        case wildcard
        /// `**`: every remaining segment, zero or more; only last.
        case catchAll
    }

    /// A route that matched, with its decoded captures (`**` under `"**"`).
    struct Match {
        var name: String
        var parameters: [String: String]
    }

    private let routes: [(name: String, components: [Component], endsInCatchAll: Bool)]

    /// Pre-splits routes.
    /// - Parameter routes: The routes, in registration order.
    init(routes: [RouteSpec]) {
        self.routes = routes.map { spec in
            let components = spec.components.map { text -> Component in
                switch text {
                case "*": return .wildcard
                case "**": return .catchAll
                case _ where text.hasPrefix(":"): return .parameter(String(text.dropFirst()))
                default: return .constant(text)
                }
            }
            return (spec.name, components, spec.components.last == "**")
        }
    }

    /// The first route matching a path.
    /// - Parameter path: The path, `/m12/item/42`.
    /// - Returns: The match, or `nil`.
    func route(path: String) -> Match? {
        let segments = path.split(separator: "/")
        var captures: [(name: String, value: Substring)] = []
        candidates: for route in routes {
            let fixed = route.endsInCatchAll ? route.components.count - 1 : route.components.count
            guard route.endsInCatchAll ? segments.count >= fixed : segments.count == fixed else { continue }
            captures.removeAll(keepingCapacity: true)
            for (position, component) in route.components.enumerated() {
                switch component {
                case .constant(let text):
                    guard segments[position] == text else { continue candidates }
                case .parameter(let name):
                    captures.append((name, segments[position]))
                case .wildcard:
                    break
                case .catchAll:
                    captures.append(("**", segments[position...].joined(separator: "/")[...]))
                }
            }
            var parameters: [String: String] = [:]
            for (name, value) in captures {
                parameters[name] = Self.decoded(value)
            }
            return Match(name: route.name, parameters: parameters)
        }
        return nil
    }

    private static func decoded(_ value: Substring) -> String {
        guard value.contains("%") else { return String(value) }
        return value.removingPercentEncoding ?? String(value)
    }
}
