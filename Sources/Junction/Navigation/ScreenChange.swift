/// A change the screen made without the router, for ``Router/screenDidChange(_:)``.
@MainActor
public enum ScreenChange {
    /// The screen removed this page and every page above it: a swipe back, the system back
    /// button, an interactive or system dismissal of its modal.
    case removed(PageID)
    /// The screen shows `content` on top of what it showed, put there by code other than
    /// the router (a legacy push or present). The router adopts it as a page named `name`,
    /// so going back over it and results around it stay true.
    case added(content: Any, name: String, presented: Bool)
}
