/// Performs the page stack's changes on screen. The router keeps the model (which pages,
/// in which order, who gets which result); a presenter only shows it.
///
/// Junction ships ``HeadlessPresenter``, which records what it is asked (tests, the
/// demo, the CLI). An iOS app plugs in a UIKit one: see the README.
@MainActor
public protocol Presenter: AnyObject {
    /// Shows one change. Called after the model has changed, in order.
    /// - Parameters:
    ///   - transition: The change.
    ///   - animated: Whether to animate it (the request's `exts["animated"]`, `true` by default).
    func apply(_ transition: Transition, animated: Bool)
}
