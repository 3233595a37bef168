public import Junction

/// One navigation stack as SwiftUI shows it: a `NavigationStack`'s root view and its path.
public struct NavigationStackState: Equatable, Sendable {
    /// The root page (`nil` while nothing is open).
    public var root: PageID?
    /// The pages pushed above the root, bottom first: `NavigationStack(path:)`'s value.
    public var path: [PageID]

    /// A stack with `root` and `path`.
    public init(root: PageID? = nil, path: [PageID] = []) {
        self.root = root
        self.path = path
    }

    /// Root and path, bottom first.
    public var pages: [PageID] { (root.map { [$0] } ?? []) + path }

    /// Whether the stack shows `id`.
    public func contains(_ id: PageID) -> Bool { root == id || path.contains(id) }
}
