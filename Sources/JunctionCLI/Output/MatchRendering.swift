import Junction

/// The text and JSON lines `junction match` prints.
enum MatchRendering {
    /// `{"url": U, "match": {"route": …, "pattern": …, "params": {…}, "query": {K: [V…]}}}`
    /// or `{"url": U, "match": null, "reason": TEXT}`.
    static func json(url: String, _ explanation: MatchExplanation) -> String {
        var object = JSONWriter()
        object.add("url", .string(url))
        if let match = explanation.match {
            var inner = JSONWriter()
            inner.add("route", .string(match.route.name))
            inner.add("pattern", .string(match.route.pattern))
            var params = JSONWriter()
            for parameter in match.parameters { params.add(parameter.name, .string(parameter.value)) }
            inner.add("params", .raw(params.rendered))
            var query = JSONWriter()
            for (name, values) in match.query.grouped { query.add(name, .array(values)) }
            inner.add("query", .raw(query.rendered))
            object.add("match", .raw(inner.rendered))
        } else {
            object.add("match", .null)
            object.add("reason", .string(explanation.reason))
        }
        return object.rendered
    }

    static func json(url: String, unparsed error: URIError) -> String {
        var object = JSONWriter()
        object.add("url", .string(url))
        object.add("match", .null)
        object.add("reason", .string("invalid URL: \(error)"))
        return object.rendered
    }

    /// `URL -> route (pattern) id=42 ?tab=posts`, or `URL -> no match: reason`.
    static func text(url: String, _ explanation: MatchExplanation, verbose: Bool) -> String {
        var lines: [String] = []
        if let match = explanation.match {
            var line = "\(url) -> \(match.route.name) (\(match.route.pattern))"
            for parameter in match.parameters { line += " \(parameter.name)=\(quoted(parameter.value))" }
            for item in match.query { line += " ?\(item.name)=\(quoted(item.value))" }
            lines.append(line)
        } else {
            lines.append("\(url) -> no match: \(explanation.reason)")
        }
        if verbose {
            for other in explanation.candidates.dropFirst() {
                lines.append("    also matches \(other.route.name) (\(other.route.pattern))")
            }
            if explanation.match != nil {
                for rejection in explanation.rejections { lines.append("    not \(rejection)") }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func text(url: String, unparsed error: URIError) -> String {
        "\(url) -> invalid URL: \(error)"
    }

    /// Values with spaces or quotes are quoted so the line stays readable.
    private static func quoted(_ value: String) -> String {
        value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" }) ? "\"\(value)\"" : value
    }
}
