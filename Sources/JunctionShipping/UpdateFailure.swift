public import Junction

/// Why the last update did not become active: the acceptance pipeline refused it, its
/// artifact could not be fetched, or it could not be persisted. The active bundle stayed.
public enum UpdateFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// A check of the acceptance pipeline refused the update.
    case refused(UpdateRefusal)
    /// The caller's fetch of the artifact the pointer names threw (its description); the
    /// update is not remembered as failed, so the next attempt fetches it again.
    case fetchFailed(UpdateIdentity, String)
    /// The update was accepted but the store could not persist it, so it was not activated
    /// either: a bundle a restart would lose must not decide now. Tried again next time.
    case notPersisted(UpdateIdentity, StoreError)

    /// `refused: staleSeq: …`, `fetch failed for seq 7 (…): …`, `not persisted, seq 7 (…): …`.
    public var description: String {
        switch self {
        case .refused(let refusal): "refused: \(refusal)"
        case .fetchFailed(let identity, let error): "fetch failed for \(identity): \(error)"
        case .notPersisted(let identity, let error): "not persisted, \(identity): \(error)"
        }
    }
}
