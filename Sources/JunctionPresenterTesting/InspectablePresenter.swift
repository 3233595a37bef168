public import Junction

/// A presenter the conformance suite can check: besides showing transitions, it says
/// which pages the screen really shows — for a UIKit presenter, the view controllers of
/// the window's tab bar, navigation stacks and presented controllers, mapped to pages with
/// ``Junction/Router/page(showing:)``.
@MainActor
public protocol InspectablePresenter: Presenter {
    /// The pages on screen now, from the selected tab's root to the top of the topmost
    /// modal: what ``Junction/Router/pages`` must equal whenever the screen has settled.
    var shownPageIDs: [PageID] { get }
}
