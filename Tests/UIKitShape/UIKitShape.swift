// The shape of the UIKit API that docs/router.md's UIKit presenter uses: names and
// signatures as UIKit declares them, and bodies that are never run. It exists so that the
// docs' presenter compiles on Linux, where there is no UIKit, and a change to `Transition`
// or `Presenter` breaks the build instead of the reader. Not a UIKit: do not run it.
// UIKit re-exports Foundation (NSObject, NSObjectProtocol), so the shape does too.
@_exported public import Foundation

/// Stands for a body that only exists in the real UIKit.
private func shapeOnly(_ name: String = #function) -> Never {
    fatalError("\(name) is a declared shape of UIKit, never run")
}

@MainActor
open class UIViewController: NSObject {
    open var navigationController: UINavigationController? { shapeOnly() }
    open var presentedViewController: UIViewController? { shapeOnly() }
    open var presentingViewController: UIViewController? { shapeOnly() }
    open var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? { shapeOnly() }
    open func present(
        _ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (@MainActor () -> Void)? = nil
    ) { shapeOnly() }
    open func dismiss(animated flag: Bool, completion: (@MainActor () -> Void)? = nil) { shapeOnly() }
}

@MainActor
open class UINavigationController: UIViewController {
    /// A stack with one controller.
    public init(rootViewController: UIViewController) { shapeOnly() }
    open var viewControllers: [UIViewController] { shapeOnly() }
    open weak var delegate: (any UINavigationControllerDelegate)? {
        get { shapeOnly() }
        set { shapeOnly() }
    }
    open func pushViewController(_ viewController: UIViewController, animated: Bool) { shapeOnly() }
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        shapeOnly()
    }
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) { shapeOnly() }
}

@MainActor
open class UITabBarController: UIViewController {
    open var viewControllers: [UIViewController]? { shapeOnly() }
    open var selectedViewController: UIViewController? { shapeOnly() }
    open var selectedIndex: Int {
        get { shapeOnly() }
        set { shapeOnly() }
    }
    open func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) { shapeOnly() }
}

/// Hears a navigation controller show controllers.
@MainActor
public protocol UINavigationControllerDelegate: NSObjectProtocol {
    func navigationController(
        _ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
}

/// Names the controllers of a transition.
public struct UITransitionContextViewControllerKey: Hashable, Sendable {
    /// The controller leaving.
    public static let from = UITransitionContextViewControllerKey()
    /// The controller arriving.
    public static let to = UITransitionContextViewControllerKey()
}

/// The running transition, as a controller sees it.
@MainActor
public protocol UIViewControllerTransitionCoordinator: NSObjectProtocol {
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
}

/// QuartzCore's transaction, which UIKit re-exports.
@MainActor
open class CATransaction: NSObject {
    open class func begin() { shapeOnly() }
    open class func commit() { shapeOnly() }
    open class func setCompletionBlock(_ block: (@MainActor () -> Void)?) { shapeOnly() }
}
