extension Decision {
    /// One line for people: `open moments {"id":3}`, `gate myapp://login`,
    /// `rejected (403): …`, `hand over https://m.example.com/x to the https dispatcher`,
    /// `unmatched myapp://nowhere` — with `, after redirect from a → b` when the URL changed.
    public var summary: String {
        var text: String
        switch outcome {
        case .open:
            let route = match?.route.name ?? "?"
            let params = self.params
            text = "open \(route)" + (params.isEmpty ? "" : " " + RuleValue.table(params).compactDescription)
        case .respond(let value):
            text = "respond \(value.compactDescription)"
        case .reject(let rejection):
            text = rejection.description
        case .gate(let url, let resume):
            text = "gate \(url)" + (resume ? ", then resume" : "")
        case .handOver(let scheme):
            text = "hand over \(uri?.string ?? "") to the \(scheme) dispatcher"
        case .unmatched:
            text = "unmatched \(uri?.string ?? request.url)"
        }
        if wasRedirected { text += ", after redirects " + (redirects + [uri?.string ?? ""]).joined(separator: " → ") }
        return text
    }
}
