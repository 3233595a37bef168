extension Finding {
    /// A stable, kebab-case identifier of a kind of finding, for tools and for silencing
    /// one kind. An open set: new kinds are new static values, not a breaking change.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The identifier, `redirect-cycle`.
        public let rawValue: String

        /// A code.
        /// - Parameter rawValue: The identifier.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The identifier.
        public var description: String { rawValue }

        /// Declared redirects that lead back to where they started: requests for those
        /// URLs are refused as redirect loops.
        public static let redirectCycle = Code(rawValue: "redirect-cycle")
        /// A declared redirect whose target no route matches, of no dispatched scheme,
        /// and not redirected further.
        public static let redirectToNothing = Code(rawValue: "redirect-to-nothing")
        /// A route that higher-precedence routes take every URL from.
        public static let unreachableRoute = Code(rawValue: "unreachable-route")
        /// A group that routes list but no `group()` policy of the bundle covers.
        public static let groupWithoutPolicy = Code(rawValue: "group-without-policy")
        /// A `group()` policy for a group that no route lists.
        public static let unusedGroupPolicy = Code(rawValue: "unused-group-policy")
        /// A route interceptor whose pattern matches no route's URLs.
        public static let interceptorMatchesNothing = Code(rawValue: "interceptor-matches-nothing")
        /// The bundle does not load or its rules do not compile.
        public static let loadError = Code(rawValue: "load-error")
    }
}
