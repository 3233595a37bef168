import Junction

/// The demo's presenter: writes each change as it is applied, so the output shows the
/// real order of changes and results.
@MainActor
final class EchoPresenter: Presenter {
    private let write: (String) -> Void

    init(_ write: @escaping (String) -> Void) { self.write = write }

    func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
        write("presenter: " + HeadlessPresenter.describe(transition) + (animated ? "" : " (not animated)"))
        completion()
    }
}
