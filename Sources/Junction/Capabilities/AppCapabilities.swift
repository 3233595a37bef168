public import JunctionCore

/// What one version of the app can open: its page targets, task names and dispatcher
/// schemes, and the app's own version. ``Router/capabilities(hostVersion:)`` makes it from
/// what is registered; `junction check DIR --app FILE` reads it to find the routes, redirects
/// and fallbacks of a bundle that this version would open as nothing.
///
/// ```swift
/// let capabilities = router.capabilities(hostVersion: SemanticVersion(6, 0, 0))
/// try capabilities.json().write(toFile: "capabilities/app-6.0.json", atomically: true, encoding: .utf8)
/// ```
///
/// Its JSON (``json()``, read back by ``init(json:file:)``) is one object with keys in
/// UTF-8 order, each list sorted and without repeats, one item a line:
///
/// ```json
/// {
///   "dispatchers": [
///     "https"
///   ],
///   "format_version": 1,
///   "host_version": "6.0.0",
///   "pages": [
///     "ProfilePage",
///     "home"
///   ],
///   "tasks": [
///     "share"
///   ]
/// }
/// ```
///
/// - `format_version`: ``formatVersion``; a reader refuses a newer one.
/// - `host_version`: the app's version, as ``SemanticVersion`` reads it.
/// - `pages`, `tasks`: the targets with a page factory or a task (synchronous or not).
/// - `dispatchers`: the schemes with a dispatcher, lower case.
public struct AppCapabilities: Sendable, Hashable {
    /// The format this version of Junction writes and reads.
    public static let formatVersion = 1

    /// The app's version.
    public var hostVersion: SemanticVersion
    /// The targets with a page factory.
    public var pages: Set<String>
    /// The targets with a task.
    public var tasks: Set<String>
    /// The schemes with a dispatcher, lower case.
    public var dispatchers: Set<String>

    /// Creates a description of an app.
    /// - Parameters:
    ///   - hostVersion: The app's version.
    ///   - pages: The targets with a page factory.
    ///   - tasks: The targets with a task.
    ///   - dispatchers: The schemes with a dispatcher, in any case.
    public init(
        hostVersion: SemanticVersion, pages: Set<String> = [], tasks: Set<String> = [], dispatchers: Set<String> = []
    ) {
        self.hostVersion = hostVersion
        self.pages = pages
        self.tasks = tasks
        self.dispatchers = Set(dispatchers.map { $0.lowercased() })
    }

    /// Whether a route leading to `target` opens something in this app: a page or a task.
    /// - Parameter target: A route's target.
    /// - Returns: Whether the app has a page factory or a task for it.
    public func opens(target: String) -> Bool {
        pages.contains(target) || tasks.contains(target)
    }

    /// Whether URLs handed over to `scheme` reach a dispatcher in this app.
    /// - Parameter scheme: The scheme, in any case.
    /// - Returns: Whether the app has a dispatcher for it.
    public func dispatches(scheme: String) -> Bool {
        dispatchers.contains(scheme.lowercased())
    }
}
