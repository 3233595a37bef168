/// Why a ``BundleUpdater`` could not be launched.
public enum BundleUpdaterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The channel URL is not one the updater can poll.
    case channel(UpdateTransportError)
    /// The artifact embedded in the app is refused: a build mistake no update can repair
    /// (signed by a key not in the keyring, a failing invariant).
    case embeddedRefused(UpdateRefusal)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .channel(let error): "the channel URL cannot be used: \(error)"
        case .embeddedRefused(let refusal): "the embedded bundle is refused: \(refusal)"
        }
    }
}
