/// How a route table reads URLs.
public struct RouteTableOptions: Sendable, Hashable {
    /// When a URL's host is read as the first path segment; `.auto` by default.
    public var hostAsPath: HostAsPath
    /// Whether `+` in a query means a space; `true` by default. Paths never.
    public var plusAsSpace: Bool
    /// Whether path constants compare case-sensitively; `true` by default. Scheme and
    /// host always compare case-insensitively.
    public var caseSensitive: Bool
    /// Schemes the app hands as a whole to another stack (`https` to a web view,
    /// `flutter`, a mini-program): a URL of such a scheme that no route matches is handed
    /// over to that scheme's dispatcher instead of being unmatched. Lower case; empty by
    /// default.
    public var dispatchedSchemes: Set<String>
    /// The most patterns one route's optional groups may expand to; 64 by default (six
    /// independent groups). A route past it is refused when the table loads, before its
    /// expansions are made.
    public var maximumExpansionsPerRoute: Int
    /// The most patterns all routes may expand to together; 100,000 by default, which
    /// loads in well under a second and a few dozen MiB. A table past it is refused when it
    /// loads, before any expansion is made (100,000 routes of six groups each took 41 s and
    /// 4.46 GB).
    public var maximumExpansions: Int

    /// Creates options.
    /// - Parameters:
    ///   - hostAsPath: When a host is the first path segment.
    ///   - plusAsSpace: Whether `+` in a query is a space.
    ///   - caseSensitive: Whether paths compare case-sensitively.
    ///   - dispatchedSchemes: Schemes handed as a whole to a dispatcher.
    ///   - maximumExpansionsPerRoute: The most patterns one route may expand to.
    ///   - maximumExpansions: The most patterns the table's routes may expand to together.
    public init(
        hostAsPath: HostAsPath = .auto, plusAsSpace: Bool = true, caseSensitive: Bool = true,
        dispatchedSchemes: Set<String> = [], maximumExpansionsPerRoute: Int = 64, maximumExpansions: Int = 100_000
    ) {
        self.hostAsPath = hostAsPath
        self.plusAsSpace = plusAsSpace
        self.caseSensitive = caseSensitive
        self.dispatchedSchemes = Set(dispatchedSchemes.map { $0.lowercased() })
        self.maximumExpansionsPerRoute = maximumExpansionsPerRoute
        self.maximumExpansions = maximumExpansions
    }
}
