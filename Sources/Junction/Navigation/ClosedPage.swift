/// A page that left the stack, as ``Router/didClose`` reports it: which page, the result
/// its opener got, and how it left — for screen tracking that sees every removal, not
/// only the back button.
@MainActor
public struct ClosedPage {
    /// How a page left the stack.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Popped off its navigation stack: `back()`, `back(to:)`, `finish(_:with:)`, a
        /// `singleTask` launch returning to a page below it.
        case popped
        /// Its modal was dismissed.
        case dismissed
        /// Another page took its place (`style: .replace`).
        case replaced
        /// The stack was reset under it: `style: .root`, `setTabs`, or the only page finished.
        case reset
        /// The screen removed it by itself (a swipe back, the system back button), reported
        /// with ``Router/pageWasRemoved(_:)``.
        case removedByScreen
    }

    /// The page, no longer on the stack.
    public let page: Page
    /// The result its opener got: what ``Router/setResult(_:for:)`` or
    /// ``Router/finish(_:with:animated:)`` set, else `cancelled`.
    public let result: RouteResult
    /// How it left.
    public let reason: Reason
}
