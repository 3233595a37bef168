/// One URL of a benchmark's mix.
struct SampleURL {
    /// The full URL, as Junction receives it: `myapp://m12/item/42/comments?ref=push`.
    var url: String
    /// The path alone, host included as first segment and query dropped
    /// (`/m12/item/42/comments`): what path-based routers receive, already extracted.
    var path: String
    /// The route it must reach, or `nil` for a deliberate miss.
    var expected: RoutedOutcome?
}
