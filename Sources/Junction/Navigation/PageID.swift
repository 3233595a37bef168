/// A page's identity, handed to its factory before the page exists, so the page can
/// later finish itself: `router.finish(id, with: .ok(address))`.
public struct PageID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number, unique within one router, increasing.
    public let rawValue: Int

    init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Earlier pages first: identities increase in opening order.
    public static func < (lhs: PageID, rhs: PageID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#3`.
    public var description: String { "#\(rawValue)" }
}
