/// Performs the page stack's changes on screen. The router keeps the model (which pages,
/// in which order, who gets which result); a presenter only shows it.
///
/// The contract, for a UI that animates:
/// - The router hands over one transition at a time and never starts the next before the
///   presenter calls `completion` for the one it is showing: a UIKit presenter calls it from
///   the animation's completion (`CATransaction.setCompletionBlock`, the transition
///   coordinator's `animate(alongsideTransition:completion:)`, `present`'s and `dismiss`'s
///   completion). Opens made meanwhile queue, in order.
/// - `completion` is called exactly once; a presenter with nothing to animate calls it at
///   once, inside `apply`.
/// - What the user changes without the router — a swipe back, a system dismissal, a page
///   pushed by legacy code — is reported with ``Router/screenDidChange(_:)``; the router
///   reconciles the model and never undoes the user.
///
/// Junction ships ``HeadlessPresenter``, which records what it is asked (tests, the demo,
/// the CLI). An iOS app plugs in a UIKit one (docs/router.md#presenters); the router's side
/// of this contract is pinned by `PresenterContractTests` against an animating presenter.
@MainActor
public protocol Presenter: AnyObject {
    /// Shows one change. Called after the model has changed, in order, one at a time.
    /// - Parameters:
    ///   - transition: The change.
    ///   - animated: Whether to animate it (the request's `exts["animated"]`, `true` by default).
    ///   - completion: Call it once, when the change is on screen (at the end of its animation).
    func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void)
}
