/// A presenter without a screen: it records each change as a line of text, for tests,
/// the demo and the CLI.
@MainActor
public final class HeadlessPresenter: Presenter {
    /// Every change so far, one line each: `push moments #3`, `dismiss login #4`.
    public private(set) var log: [String] = []

    /// A presenter with an empty log.
    public init() {}

    /// Records the change and completes at once.
    /// - Parameters:
    ///   - transition: The change.
    ///   - animated: Recorded as ` (not animated)` when `false`.
    ///   - completion: Called before it returns.
    public func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
        log.append(Self.describe(transition) + (animated ? "" : " (not animated)"))
        completion()
    }

    /// Empties the log.
    public func clear() { log.removeAll() }

    /// A change as one line.
    public static func describe(_ transition: Transition) -> String {
        func name(_ page: Page) -> String { "\(page.name) \(page.id)" }
        func names(_ pages: [Page]) -> String { pages.map(name).joined(separator: ", ") }
        switch transition {
        case .push(let page): return "push \(name(page))"
        case .present(let page): return "present \(name(page))"
        case .pop(let page, let removing): return "pop to \(name(page)), removing \(names(removing))"
        case .dismiss(let modal, let removing): return "dismiss \(name(modal)), removing \(names(removing))"
        case .replace(let old, let new): return "replace \(name(old)) with \(name(new))"
        case .setRoot(let page, let tab, let removing):
            return "root of tab \(tab): \(name(page))" + (removing.isEmpty ? "" : ", removing \(names(removing))")
        case .removeRoot(let page): return "remove root \(name(page))"
        case .setTabs(let roots, let removing):
            return "tabs: \(names(roots))" + (removing.isEmpty ? "" : ", removing \(names(removing))")
        case .selectTab(let index, let root, let params):
            return "select tab \(index)" + (root.map { " (\(name($0)))" } ?? "")
                + (params.values.isEmpty && params.objects.isEmpty ? "" : " \(params)")
        case .renew(let page): return "renew \(name(page)) with \(page.url)"
        }
    }
}
