public import JunctionCore

extension Router {
    /// What this router can open now — the targets with a page factory or a task, the
    /// ``NavigationTarget``s it carries out itself (as pages), the schemes with a dispatcher — as the app of `hostVersion`: write its
    /// ``AppCapabilities/json()`` where the bundle's authors run
    /// `junction check DIR --app FILE`, once per app version.
    ///
    /// ```swift
    /// let json = router.capabilities(hostVersion: SemanticVersion(6, 0, 0)).json()
    /// ```
    /// - Parameter hostVersion: The app's version: the router does not know it.
    /// - Returns: The capabilities, as registered when called.
    public func capabilities(hostVersion: SemanticVersion) -> AppCapabilities {
        AppCapabilities(
            hostVersion: hostVersion,
            pages: Set(pageFactories.keys).union(NavigationTarget.allCases.map(\.rawValue)), tasks: Set(tasks.keys),
            dispatchers: Set(dispatchers.keys))
    }
}
