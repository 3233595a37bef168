/// How the device's routing policy stands.
public enum UpdateCondition: Sendable, Hashable, CustomStringConvertible {
    /// The active bundle is within its expiry and the last update, if any, went in.
    case ok
    /// The active bundle is past its expiry — it keeps deciding under
    /// ``StaleBundlePolicy/keepDeciding`` — or the update in force is and the embedded bundle
    /// decides in its place under ``StaleBundlePolicy/fallBackToEmbedded``: the channel was
    /// not republished in time or the device cannot reach it.
    case stale
    /// The last update was not activated, for this reason; the active bundle stayed.
    case failed(UpdateFailure)

    /// `ok`, `stale`, or `failed(` and the reason `)`.
    public var description: String {
        switch self {
        case .ok: "ok"
        case .stale: "stale"
        case .failed(let failure): "failed(\(failure))"
        }
    }
}
