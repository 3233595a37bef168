package import JunctionCore

/// A redirect's `to`: a URL with `{param}` placeholders filled from the `from` pattern's
/// captures, each percent-encoded (a value cannot add a path segment or a query item).
package struct RedirectTemplate: Sendable {
    private enum Part: Sendable {
        case literal(String)
        case parameter(String)
    }

    private let parts: [Part]

    /// Parses `text`.
    /// - Parameters:
    ///   - text: The template.
    ///   - parameters: The names the `from` pattern captures.
    /// - Throws: A message for a `{` without `}`, an empty or invalid name, or a name
    ///   the pattern does not capture.
    package init(_ text: String, parameters: [String]) throws(TemplateError) {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw TemplateError("\"{\" without a closing \"}\" in \"\(text)\"")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard name != "**", name != "*" else {
                throw TemplateError(
                    "{\(name)}: a declared redirect carries named parameters only, not what ** matched (its "
                        + "segments decoded could rebuild the target's path, ../ included); name the segments "
                        + "(from = \"myapp://docs/:section/:page\"), or redirect from an interceptor of the route, "
                        + "which reads req.path and req.segments")
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw TemplateError(
                    "\"{\(name)}\" is not a parameter placeholder; write {name} with letters, digits and _")
            }
            guard parameters.contains(name) else {
                let known =
                    parameters.isEmpty
                    ? "it captures none" : "it captures " + parameters.map { "{\($0)}" }.joined(separator: ", ")
                throw TemplateError("{\(name)} is not a parameter of the from pattern; \(known)")
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.parameter(name))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The URL for `parameters`.
    package func expand(_ parameters: PathParameters) -> String {
        var url = ""
        for part in parts {
            switch part {
            case .literal(let text): url += text
            case .parameter(let name): url += PercentEncoding.encode(parameters[name] ?? "")
            }
        }
        return url
    }

    /// Why a template does not parse.
    package struct TemplateError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
