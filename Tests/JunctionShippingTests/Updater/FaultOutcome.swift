import Junction
import JunctionShipping

/// What a fault of the host or of what it serves must come to: unreachable with a transport
/// code (and HTTP status), or refused with a refusal code.
enum FaultOutcome: Sendable, Equatable, CustomStringConvertible {
    case unreachable(UpdateTransportError.Code, status: Int? = nil)
    case refused(UpdateRefusal.Code)

    /// Whether `outcome` is this one.
    func matches(_ outcome: UpdatePollOutcome) -> Bool {
        switch (outcome, self) {
        case (.unreachable(let error, _), .unreachable(let code, let status)):
            error.code == code && error.status == status
        case (.refused(.refused(let refusal)), .refused(let code)):
            refusal.code == code
        default:
            false
        }
    }

    var description: String {
        switch self {
        case .unreachable(let code, let status): "unreachable \(code)\(status.map { " \($0)" } ?? "")"
        case .refused(let code): "refused \(code)"
        }
    }
}
