extension Finding {
    /// A stable, kebab-case identifier of a kind of finding, for tools and for silencing
    /// one kind. An open set: new kinds are new static values, not a breaking change.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The identifier, `redirect-cycle`.
        package let rawValue: String

        /// A code.
        /// - Parameter rawValue: The identifier.
        package init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The identifier.
        package var description: String { rawValue }

        /// Declared redirects that lead back to where they started: requests for those
        /// URLs are refused as redirect loops.
        package static let redirectCycle = Code(rawValue: "redirect-cycle")
        /// A declared redirect whose target no route matches, of no dispatched scheme,
        /// and not redirected further.
        package static let redirectToNothing = Code(rawValue: "redirect-to-nothing")
        /// A route that higher-precedence routes take every URL from.
        package static let unreachableRoute = Code(rawValue: "unreachable-route")
        /// A group that routes list but no `group()` policy of the bundle covers.
        package static let groupWithoutPolicy = Code(rawValue: "group-without-policy")
        /// A `group()` policy for a group that no route lists.
        package static let unusedGroupPolicy = Code(rawValue: "unused-group-policy")
        /// A route interceptor whose pattern matches no route's URLs.
        package static let interceptorMatchesNothing = Code(rawValue: "interceptor-matches-nothing")
        /// An interceptor pattern that matches some URLs of a route and not others: the
        /// route is guarded only in part.
        package static let interceptorPatternPartial = Code(rawValue: "interceptor-pattern-partial")
        /// A declared redirect that sends URLs of a route in policy groups to a route
        /// outside them, or to another stack, before any policy runs.
        package static let redirectLeavesPolicies = Code(rawValue: "redirect-leaves-policies")
        /// Code reads a global that neither the sandbox nor the bundle defines (`rolout`),
        /// or a field a sandbox library does not have (`url.encdoe`).
        package static let undefinedGlobal = Code(rawValue: "undefined-global")
        /// A function that can run after the bundle has loaded assigns a global, which then
        /// always fails: the globals are read-only.
        package static let globalAssignment = Code(rawValue: "global-assignment")
        /// `req.source` is compared with a string that is not one of the bundle's sources.
        package static let unknownSource = Code(rawValue: "unknown-source")
        /// A rule reads a context key the manifest's `context:` schema does not declare, or
        /// a field of a key whose type has none.
        package static let unknownContextKey = Code(rawValue: "unknown-context-key")
        /// A function reads fields of a context key that may be absent (`ctx.user.id`)
        /// without testing the key, so the rule fails when it is absent.
        package static let unguardedContextRead = Code(rawValue: "unguarded-context-read")
        /// A rule reads a field a request does not have (`req.segmants`, `req.route.nmae`).
        package static let unknownRequestField = Code(rawValue: "unknown-request-field")
        /// `version.compare` is given a literal that is not a version (`"6.1 beta"`).
        package static let badVersionLiteral = Code(rawValue: "bad-version-literal")
        /// A context key declared a `version` compared with `<`, `<=`, `>` or `>=`: as text.
        package static let versionComparedAsText = Code(rawValue: "version-compared-as-text")
        /// A `minimum_host_version` with a pre-release (`6.1-beta`).
        package static let prereleaseHostVersion = Code(rawValue: "prerelease-host-version")
        /// A redirect, declared or returned by a rule, from a route links from outside the
        /// app may open to one they may not: those requests are refused (403).
        package static let redirectToUnexported = Code(rawValue: "redirect-to-unexported")
        /// A group that routes list and no policy covers, whose name is near one a policy
        /// covers (`logni` and `login`): the routes are open where their neighbours are
        /// guarded.
        package static let groupNearPolicy = Code(rawValue: "group-near-policy")
        /// An entry of the manifest's `allow:` that names a code no allowance can accept.
        package static let badAllowance = Code(rawValue: "bad-allowance")
        /// An entry of the manifest's `allow:` that accepts no finding: stale, or misspelt.
        package static let unusedAllowance = Code(rawValue: "unused-allowance")
        /// The codes of findings that weaken a policy: errors that a manifest's `allow:`
        /// can accept on purpose (``FindingAllowance``).
        package static let acceptable: Set<Code> = [.redirectLeavesPolicies, .groupNearPolicy]
        /// A route whose target an app version that loads the bundle (`junction check --app`)
        /// has no page or task for, and that no rule answers with `respond`.
        package static let targetMissing = Code(rawValue: "target-missing")
        /// A scheme the route table hands to a dispatcher that an app version that loads the
        /// bundle does not have.
        package static let dispatcherMissing = Code(rawValue: "dispatcher-missing")
        /// A declared redirect, or a redirect a rule returns (a fallback's too), that lands
        /// on a route or dispatcher an app version that loads the bundle cannot open.
        package static let redirectToMissingTarget = Code(rawValue: "redirect-to-missing-target")
        /// A `minimum_host_version` that lets an app version load the bundle when that
        /// version lacks targets or dispatchers the bundle leads to.
        package static let hostVersionTooLow = Code(rawValue: "host-version-too-low")
        /// The bundle does not load or its rules do not compile.
        package static let loadError = Code(rawValue: "load-error")
    }
}
