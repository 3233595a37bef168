import JunctionCore

/// What a contender of `decide.*` concluded for one URL, reduced to what all of them
/// report alike.
struct DecideOutcome: Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        /// The route opened and the `id` it carries.
        case open(route: String, id: String?)
        case gate(url: String)
        case reject(code: Int?)
        case unmatched
        /// Anything else, described.
        case other(String)
    }

    var kind: Kind
    /// Whether a declared redirect changed the URL first.
    var redirected: Bool

    var description: String {
        let text: String
        switch kind {
        case .open(let route, let id): text = "open \(route)" + (id.map { " id=\($0)" } ?? "")
        case .gate(let url): text = "gate \(url)"
        case .reject(let code): text = "reject \(code.map(String.init) ?? "-")"
        case .unmatched: text = "unmatched"
        case .other(let description): text = description
        }
        return text + (redirected ? " (after a redirect)" : "")
    }

    /// The outcome a rule's verdict stops a request with; `nil` for `continue`.
    static func stopping(_ verdict: Verdict, redirected: Bool) -> DecideOutcome? {
        switch verdict {
        case .continue: return nil
        case .gate(let url, _): return DecideOutcome(kind: .gate(url: url), redirected: redirected)
        case .reject(_, let code): return DecideOutcome(kind: .reject(code: code), redirected: redirected)
        default: return DecideOutcome(kind: .other(verdict.summary), redirected: redirected)
        }
    }

    /// A Junction decision, reduced.
    init(_ decision: Decision) {
        redirected = decision.wasRedirected
        switch decision.outcome {
        case .open:
            let id: String? = if case .string(let text)? = decision.params["id"] { text } else { nil }
            kind = .open(route: decision.match?.route.name ?? "?", id: id)
        case .gate(let url, _): kind = .gate(url: url)
        case .reject(let rejection): kind = .reject(code: rejection.code)
        case .unmatched: kind = .unmatched
        default: kind = .other(decision.summary)
        }
    }

    init(kind: Kind, redirected: Bool) {
        self.kind = kind
        self.redirected = redirected
    }
}
