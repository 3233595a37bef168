/// Targets the router carries out itself, so an H5 page, a push or a rule can move around
/// the app by URL (JSDVCRouter's `/rootTab/:index` and back-index URLs). A route leads to
/// one by naming it as its `target:`; who may open that route is decided as for any other
/// (`exported`, sources, group policies, interceptors).
///
/// ```yaml
/// - name: nav.tab
///   pattern: myapp://tab/:index
///   target: junction.tab
///   exported: true
///   params: { index: { type: int, required: true } }
/// - name: nav.back
///   pattern: myapp://back
///   target: junction.back
///   exported: true
///   params: { count: int, to: string, then: string }
/// ```
///
/// A page factory or task registered under the same name takes precedence.
public enum NavigationTarget: String, Sendable, CaseIterable {
    /// Shows tab `index` (from 0), dismissing any modal; the route's other parameters reach
    /// the tab's root page as ``Page/tabParams``.
    case tab = "junction.tab"
    /// Goes back: `count` pages (1 by default), or `to` the topmost page of a route, or to
    /// the page `before` it; then, with `then`, opens that URL (as the same source) — the
    /// pop is not animated, so the screen shows one transition.
    case back = "junction.back"
}
