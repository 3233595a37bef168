/// How a route table reads URLs.
public struct RouteTableOptions: Sendable, Hashable {
    /// When a URL's host is read as the first path segment; `.auto` by default.
    public var hostAsPath: HostAsPath
    /// Whether `+` in a query means a space; `true` by default. Paths never.
    public var plusAsSpace: Bool
    /// Whether path constants compare case-sensitively; `true` by default. Scheme and
    /// host always compare case-insensitively.
    public var caseSensitive: Bool

    /// Creates options.
    /// - Parameters:
    ///   - hostAsPath: When a host is the first path segment.
    ///   - plusAsSpace: Whether `+` in a query is a space.
    ///   - caseSensitive: Whether paths compare case-sensitively.
    public init(hostAsPath: HostAsPath = .auto, plusAsSpace: Bool = true, caseSensitive: Bool = true) {
        self.hostAsPath = hostAsPath
        self.plusAsSpace = plusAsSpace
        self.caseSensitive = caseSensitive
    }
}
