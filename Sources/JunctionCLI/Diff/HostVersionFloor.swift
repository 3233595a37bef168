import Junction

/// The new bundle's `minimum_host_version`, as a diff applies it: a device whose app is
/// older refuses the new bundle and keeps the one it has, so its requests are not changes
/// — they are counted apart. A request's app version is its context's `app_version`, when
/// that is text that reads as a version; a request without one is decided as any other.
struct HostVersionFloor: Sendable {
    /// The context key that holds the app's version, as the example bundle and the app's
    /// decision observer write it.
    static let contextKey = "app_version"

    /// The oldest app version the new bundle runs on; `nil` when it names none.
    let minimum: SemanticVersion?

    /// Whether the app that made a request in `context` is older than ``minimum``.
    func isBelow(_ context: ContextSnapshot) -> Bool {
        guard let minimum, case .string(let text)? = context.values[Self.contextKey],
            let version = SemanticVersion(text)
        else { return false }
        return version < minimum
    }
}
