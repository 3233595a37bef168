/// Deterministic route tables and URL mixes, built from `n / 5` modules of five route
/// shapes that Junction, routing-kit and a linear scan all support (constants, `:id`,
/// `*`, `**`; no regex). Nothing is random, so every run measures the same work.
enum RouteSetGenerator {
    /// Routes per module.
    static let shapesPerModule = 5

    /// Exactly `count` routes, module by module:
    /// `m{i}/list`, `m{i}/item/:id`, `m{i}/item/:id/comments`, `m{i}/*/detail`, and
    /// `static{i}/**` (even `i`) or `api/v{1…3}/res{i}/:id` (odd `i`).
    /// - Parameter count: A multiple of five, at least 20.
    /// - Returns: The routes in registration order.
    static func routes(count: Int) -> [RouteSpec] {
        precondition(count % shapesPerModule == 0 && count >= 20, "route count must be a multiple of 5, at least 20")
        var routes: [RouteSpec] = []
        routes.reserveCapacity(count)
        for i in 0..<(count / shapesPerModule) {
            let module = "m\(i)"
            routes.append(RouteSpec(name: "\(module).list", components: [module, "list"]))
            routes.append(RouteSpec(name: "\(module).item", components: [module, "item", ":id"]))
            routes.append(RouteSpec(name: "\(module).comments", components: [module, "item", ":id", "comments"]))
            routes.append(RouteSpec(name: "\(module).detail", components: [module, "*", "detail"]))
            if i % 2 == 0 {
                routes.append(RouteSpec(name: "static\(i).files", components: ["static\(i)", "**"]))
            } else {
                let version = apiVersion(of: i)
                routes.append(
                    RouteSpec(name: "api.v\(version).res\(i)", components: ["api", "v\(version)", "res\(i)", ":id"]))
            }
        }
        return routes
    }

    /// `count` URLs hitting modules spread evenly from the first to the last (so a
    /// linear scan's cost shows), cycling through the five shapes, with four misses,
    /// a query string on every third, one percent-escape and one trailing slash.
    /// - Parameters:
    ///   - routeCount: The size of the table the URLs are for.
    ///   - count: How many URLs; 64 by default.
    /// - Returns: The URLs with their expected outcomes.
    static func urls(routeCount: Int, count: Int = 64) -> [SampleURL] {
        let modules = routeCount / shapesPerModule
        return (0..<count).map { j in
            var i = j * (modules - 1) / (count - 1)
            let query = j % 3 == 2 ? "?ref=push&utm_source=bench" : ""
            var trailingSlash = ""
            let segments: [String]
            var expected: RoutedOutcome?

            if j % 16 == 13 {
                // Misses, each stopping at a different depth.
                switch j / 16 {
                case 0: segments = ["nowhere", "list"]
                case 1: segments = ["m\(i)", "unknown"]
                case 2: segments = ["m\(i)", "item"]
                default: segments = ["api", "v9", "res\(i)", "7"]
                }
                expected = nil
            } else {
                switch j % shapesPerModule {
                case 0:
                    segments = ["m\(i)", "list"]
                    if j == 40 { trailingSlash = "/" }
                    expected = RoutedOutcome(route: "m\(i).list")
                case 1:
                    let (raw, decoded) = j == 21 ? ("a%20b", "a b") : ("\(1000 + j * 7)", "\(1000 + j * 7)")
                    segments = ["m\(i)", "item", raw]
                    expected = RoutedOutcome(route: "m\(i).item", id: decoded)
                case 2:
                    segments = ["m\(i)", "item", "\(j * 13 + 5)", "comments"]
                    expected = RoutedOutcome(route: "m\(i).comments", id: "\(j * 13 + 5)")
                case 3:
                    // Not `list` or `item`: routing-kit does not backtrack out of a constant.
                    segments = ["m\(i)", "tab\(j)", "detail"]
                    expected = RoutedOutcome(route: "m\(i).detail")
                default:
                    if (j / shapesPerModule) % 2 == 0 {
                        i -= i % 2
                        segments = ["static\(i)", "img", "\(j)", "banner.png"]
                        expected = RoutedOutcome(route: "static\(i).files", rest: "img/\(j)/banner.png")
                    } else {
                        if i % 2 == 0 { i = i + 1 < modules ? i + 1 : i - 1 }
                        let version = apiVersion(of: i)
                        segments = ["api", "v\(version)", "res\(i)", "\(j * 3)"]
                        expected = RoutedOutcome(route: "api.v\(version).res\(i)", id: "\(j * 3)")
                    }
                }
            }
            let path = "/" + segments.joined(separator: "/") + trailingSlash
            return SampleURL(url: "myapp:/" + path + query, path: path, expected: expected)
        }
    }

    private static func apiVersion(of module: Int) -> Int { module % 3 + 1 }
}
