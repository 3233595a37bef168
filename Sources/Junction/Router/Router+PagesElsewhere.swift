extension Router {
    /// The most pages on other stacks whose results the router waits for at once; opening
    /// one more cancels the oldest (its opener gets `cancelled`), so a web container that
    /// never reports cannot make the router hold openers without end.
    public nonisolated static let maximumPagesElsewhere = 64

    /// The pages on other stacks (``HandOver/Outcome/openedElsewhere``) whose results the
    /// router still waits for, oldest first.
    public var pagesElsewhere: [PageID] { pagesAwaitingResult.map(\.id) }

    /// Gives the opener of a page on another stack `cancelled` and stops waiting for it:
    /// the Flutter route or H5 page was closed without a result.
    /// - Parameter id: The page's ``HandOver/id``.
    /// - Returns: Whether the router was waiting for it.
    @discardableResult
    public func cancelPageElsewhere(_ id: PageID) -> Bool {
        deliverElsewhere(id, .cancelled)
    }

    /// Waits for the result of the page `handOver` opened on another stack.
    func awaitResultElsewhere(_ handOver: HandOver, onResult: (@MainActor (RouteResult) -> Void)?) {
        if pagesAwaitingResult.count >= Self.maximumPagesElsewhere, let oldest = pagesAwaitingResult.first {
            _ = deliverElsewhere(
                oldest.id,
                RouteResult(
                    .cancelled,
                    message:
                        "\(Self.maximumPagesElsewhere) pages on other stacks were waiting for their results; "
                        + "the oldest, \(oldest.url), was given up"))
        }
        pagesAwaitingResult.append(PageElsewhere(id: handOver.id, url: handOver.url, onResult: onResult))
    }

    /// Gives the opener of page `id` on another stack its result, once.
    /// - Returns: Whether the router was waiting for it.
    func deliverElsewhere(_ id: PageID, _ result: RouteResult) -> Bool {
        guard let index = pagesAwaitingResult.firstIndex(where: { $0.id == id }) else { return false }
        let page = pagesAwaitingResult.remove(at: index)
        page.onResult?(result)
        return true
    }
}

/// A page a dispatcher opened on another stack, whose opener waits for its result.
@MainActor
struct PageElsewhere {
    let id: PageID
    let url: String
    let onResult: (@MainActor (RouteResult) -> Void)?
}
