/// One generated route, written once as components and rendered for each matcher, so
/// all of them register the same routes.
struct RouteSpec {
    /// The route's name; every matcher reports it on a hit.
    var name: String
    /// Components as written in patterns: constants, `:name`, `*`, `**`. The first is the
    /// custom-scheme host, which Junction reads as the first path segment.
    var components: [String]

    /// The Junction pattern: `myapp://m12/item/:id`.
    var pattern: String { "myapp://" + components.joined(separator: "/") }
}
