/// What a matcher made of one URL, reduced to what all of them report alike: the
/// route's name, the captured `id` and the `**` remainder, all decoded.
struct RoutedOutcome: Equatable, CustomStringConvertible {
    /// The name of the route that matched.
    var route: String
    /// The decoded `:id` capture, if the route has one.
    var id: String?
    /// The decoded `**` capture, segments joined with `/`, if the route has one.
    var rest: String?

    var description: String {
        var text = route
        if let id { text += " id=\"\(id)\"" }
        if let rest { text += " **=\"\(rest)\"" }
        return text
    }
}
