import Junction
import UIKit

@MainActor final class UIKitPresenter: NSObject, Presenter, UINavigationControllerDelegate {
    let tabs: UITabBarController
    weak var router: Router?
    init(tabs: UITabBarController) { self.tabs = tabs }

    private func vc(_ page: Page) -> UIViewController { page.content(as: UIViewController.self)! }
    private var topNavigation: UINavigationController {
        var top: UIViewController = tabs
        while let presented = top.presentedViewController { top = presented }
        return top as? UINavigationController ?? tabs.selectedViewController as! UINavigationController
    }

    func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
        CATransaction.begin()
        CATransaction.setCompletionBlock { completion() }  // navigation animations end here
        switch transition {
        case .push(let page):
            topNavigation.pushViewController(vc(page), animated: animated)
        case .present(let page):
            CATransaction.setCompletionBlock(nil)  // present and dismiss say so themselves
            topNavigation.present(UINavigationController(rootViewController: vc(page)), animated: animated) {
                completion()
            }
        case .pop(let page, _):
            vc(page).navigationController?.popToViewController(vc(page), animated: animated)
        case .dismiss(let modal, _):
            CATransaction.setCompletionBlock(nil)
            vc(modal).navigationController?.presentingViewController?.dismiss(animated: animated) { completion() }
        case .replace(let old, let new):
            let navigation = vc(old).navigationController!
            navigation.setViewControllers(navigation.viewControllers.dropLast() + [vc(new)], animated: animated)
        case .setRoot(let page, let tab, _):
            (tabs.viewControllers?[tab] as? UINavigationController)?.setViewControllers([vc(page)], animated: animated)
        case .setTabs(let roots, _):
            let stacks = roots.map { UINavigationController(rootViewController: vc($0)) }
            for stack in stacks { stack.delegate = self }
            tabs.setViewControllers(stacks, animated: animated)
        case .selectTab(let index, _, _):
            tabs.selectedIndex = index
        case .removeRoot:
            break
        case .renew:
            break  // a reused page's URL and parameters changed in place: refresh it if it shows them
        }
        CATransaction.commit()
    }

    // The user went back (a swipe, the back button): the controller that left is the page
    // the screen removed. After the router's own pops it is no longer on the router's
    // screen, and the report changes nothing.
    func navigationController(
        _ navigation: UINavigationController, didShow shown: UIViewController, animated: Bool
    ) {
        guard let router, let left = navigation.transitionCoordinator?.viewController(forKey: .from),
            !navigation.viewControllers.contains(left), let page = router.page(showing: left)
        else { return }
        router.screenDidChange(.removed(page.id))
    }
}
