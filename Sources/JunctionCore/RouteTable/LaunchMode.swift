/// What opening a route does when a page of it is already on the stack (`launch:` in
/// routes.yaml; Android's terms).
public enum LaunchMode: String, Sendable, Hashable, CaseIterable {
    /// Every open pushes a new page.
    case standard
    /// An open whose page would go on top of a page of the same route reuses that page:
    /// a double tap pushes nothing twice.
    case singleTop
    /// An open of a route with a page on the visible stack goes back to that page,
    /// removing the pages above it, and reuses it.
    case singleTask
}
