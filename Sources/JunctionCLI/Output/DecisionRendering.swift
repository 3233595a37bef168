import Junction

/// How `junction eval` and `junction test` show decisions and traces.
enum DecisionRendering {
    /// The trace as numbered steps, one a line, each indented by `indent`; with
    /// `timing`, each step's time and instructions.
    static func trace(_ trace: DecisionTrace, indent: String, timing: Bool) -> [String] {
        trace.steps.enumerated().map { index, step in
            var line = "\(indent)\(index + 1). \(step.description)"
            if timing {
                line += "  [\(microseconds(step.nanoseconds))"
                if step.instructions > 0 { line += ", \(step.instructions) instructions" }
                line += "]"
            }
            return line
        }
    }

    /// `1.25µs`.
    static func microseconds(_ nanoseconds: Int) -> String {
        let value = Double(nanoseconds) / 1000
        let rounded = (value * 100).rounded() / 100
        return "\(rounded)µs"
    }

    /// The decision as one JSON object; with `timing`, each step's time and instructions
    /// (corpora leave them out: they decide as devices do, counting instructions in steps
    /// of 1,000, and a corpus's output is compared line by line).
    static func json(_ decision: Decision, timing: Bool = true) -> String {
        var object = JSONWriter()
        object.add("url", .string(decision.request.url))
        object.add("source", .string(decision.request.source.rawValue))
        switch decision.outcome {
        case .open:
            object.add("outcome", .string("open"))
            object.add("route", .string(decision.match?.route.name ?? ""))
            object.add("params", .raw(RuleValue.table(decision.params).json))
        case .respond(let value):
            object.add("outcome", .string("respond"))
            object.add("route", decision.match.map { .string($0.route.name) } ?? .null)
            object.add("value", .raw(value.json))
        case .reject(let rejection):
            object.add("outcome", .string("reject"))
            object.add("cause", .string(rejection.cause.rawValue))
            object.add("reason", .string(rejection.reason))
            object.add("code", rejection.code.map { .raw(String($0)) } ?? .null)
            object.add("rule", rejection.rule.map { .string($0) } ?? .null)
        case .gate(let url, let resume):
            object.add("outcome", .string("gate"))
            object.add("gate", .string(url))
            object.add("resume", .raw(resume ? "true" : "false"))
        case .handOver(let scheme):
            object.add("outcome", .string("hand_over"))
            object.add("scheme", .string(scheme))
        case .unmatched:
            object.add("outcome", .string("unmatched"))
        }
        object.add("final_url", decision.uri.map { .string($0.string) } ?? .null)
        object.add("redirects", .array(decision.redirects))
        object.add("bundle", decision.trace.bundle.map { .string($0) } ?? .null)
        object.add(
            "trace",
            .raw("[" + decision.trace.steps.map { step(json: $0, timing: timing) }.joined(separator: ", ") + "]"))
        return object.rendered
    }

    private static func step(json step: TraceStep, timing: Bool) -> String {
        var object = JSONWriter()
        object.add("stage", .string(step.stage.rawValue))
        object.add("name", step.name.map { .string($0) } ?? .null)
        object.add("location", step.location.map { .string($0) } ?? .null)
        object.add("verdict", step.verdict.map { .string($0.summary) } ?? .null)
        object.add("detail", .string(step.detail))
        object.add("error", step.error.map { .string($0) } ?? .null)
        if timing {
            object.add("nanoseconds", .raw(String(step.nanoseconds)))
            object.add("instructions", .raw(String(step.instructions)))
        }
        return object.rendered
    }
}
