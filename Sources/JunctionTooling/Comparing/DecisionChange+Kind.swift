extension DecisionChange {
    /// What changed for a request, one kind per change. When several things changed, the
    /// kind is the first that applies in this order: a rule now fails; the URL is now (or
    /// no longer) unmatched, rejected, gated, handed over; the outcome is of the same kind
    /// but its rejection, gate or dispatcher differs; another route; other redirects; other
    /// parameters; another answer.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A rule raises an error or runs out of its budget under the new policy and not
        /// under the old — whatever its `on_error` made of it.
        case ruleNowFails = "rule_now_fails"
        /// Nothing takes the URL any more: the app's undefined-route handler gets it.
        case nowUnmatched = "now_unmatched"
        /// Something takes a URL nothing took.
        case nowMatched = "now_matched"
        /// The request is refused, and was not.
        case nowRejected = "now_rejected"
        /// The request was refused, and is not.
        case noLongerRejected = "no_longer_rejected"
        /// Both refuse it, for another reason, code, cause or rule.
        case rejectionChanged = "rejection_changed"
        /// A gate (a login page) opens first, and did not.
        case nowGated = "now_gated"
        /// A gate opened first, and does not.
        case noLongerGated = "no_longer_gated"
        /// Both open a gate first, another one (or one that no longer resumes).
        case gateChanged = "gate_changed"
        /// The URL goes to a dispatcher (H5, Flutter, another app), and did not.
        case nowHandedOver = "now_handed_over"
        /// The URL went to a dispatcher, and does not.
        case noLongerHandedOver = "no_longer_handed_over"
        /// Both hand the URL over, to another dispatcher or another URL.
        case handedOverElsewhere = "handed_over_elsewhere"
        /// Another route opens, or answers.
        case otherRoute = "other_route"
        /// The same route, reached through other redirects or at another URL.
        case redirectsChanged = "redirects_changed"
        /// The same route opens with other parameters.
        case paramsChanged = "params_changed"
        /// The same action route answers with another value.
        case responseChanged = "response_changed"
        /// The same route now answers where it opened, or opens where it answered.
        case outcomeChanged = "outcome_changed"

        /// The kind's name in reports and on the command line: `now_unmatched`.
        public var description: String { rawValue }

        /// A few words for people: `now unmatched`.
        public var phrase: String {
            switch self {
            case .ruleNowFails: "a rule now fails"
            case .nowUnmatched: "now unmatched"
            case .nowMatched: "now matched"
            case .nowRejected: "now rejected"
            case .noLongerRejected: "no longer rejected"
            case .rejectionChanged: "rejected otherwise"
            case .nowGated: "now gated"
            case .noLongerGated: "no longer gated"
            case .gateChanged: "gated otherwise"
            case .nowHandedOver: "now handed over"
            case .noLongerHandedOver: "no longer handed over"
            case .handedOverElsewhere: "handed over elsewhere"
            case .otherRoute: "another route"
            case .redirectsChanged: "redirect chain changed"
            case .paramsChanged: "parameters changed"
            case .responseChanged: "another answer"
            case .outcomeChanged: "opens where it answered, or the reverse"
            }
        }
    }
}
