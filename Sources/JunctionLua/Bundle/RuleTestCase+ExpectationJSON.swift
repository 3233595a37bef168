import JunctionCore

extension RuleTestCase.Expectation {
    /// The expectation as canonical JSON's value (see ``RuleTestCase/canonicalJSON(_:relativeTo:)``).
    var canonicalJSONValue: RuleValue {
        var fields: [String: RuleValue] = [:]
        if let route { fields["route"] = .string(route) }
        if let params { fields["params"] = .table(params) }
        if let redirect { fields["redirect"] = .string(redirect) }
        if noRedirect { fields["no_redirect"] = true }
        if reject { fields["reject"] = true }
        if let reason { fields["reason"] = .string(reason) }
        if let code { fields["code"] = .int(Int64(code)) }
        if let cause { fields["cause"] = .string(cause.rawValue) }
        if let gate { fields["gate"] = .string(gate) }
        if let respond { fields["respond"] = respond }
        if unmatched { fields["unmatched"] = true }
        if let handOver { fields["hand_over"] = .string(handOver) }
        switch failures {
        case .never: break
        case .any: fields["fails"] = true
        case .matching(let rules): fields["fails"] = .array(rules.map(RuleValue.string))
        }
        if let then {
            var resumed = then.expectation.canonicalJSONValue
            if case .table(var nested) = resumed {
                if then.context != [:] { nested["context"] = then.context }
                resumed = .table(nested)
            }
            fields["then"] = resumed
        }
        return .table(fields)
    }

    /// Reads ``canonicalJSONValue`` back from `expect`, checking each value as the YAML
    /// loader does: a code in 100–999, a known cause, `fails` a bounded list of rules.
    init(canonicalJSON object: inout CanonicalJSONObject, depth: Int = 0) throws(CanonicalJSONError) {
        self.init()
        route = try object.string("route")
        if let given = object.value("params") {
            guard case .table(let fields) = given else {
                throw CanonicalJSONObject.mismatch(
                    given, expected: "an object", at: object.path(of: "params"), file: object.file)
            }
            params = fields
        }
        redirect = try object.string("redirect")
        noRedirect = try object.bool("no_redirect") ?? false
        reject = try object.bool("reject") ?? false
        reason = try object.string("reason")
        if let number = try object.int("code") {
            guard (100...999).contains(number) else {
                throw object.error("code", "\(number) is outside 100–999")
            }
            code = number
        }
        if let text = try object.string("cause") {
            guard let known = Rejection.Cause(rawValue: text) else {
                throw object.error("cause", "\"\(ContextSchema.shown(text))\" is not a cause of rejection")
            }
            cause = known
        }
        gate = try object.string("gate")
        respond = object.value("respond")
        unmatched = try object.bool("unmatched") ?? false
        handOver = try object.string("hand_over")
        if var resumed = try object.object("then", what: "an expectation after the gate") {
            guard gate != nil else { throw object.error("then", "follows a gate; give gate: too") }
            guard depth < Self.maximumResumptions else {
                throw object.error("then", "follows more than \(Self.maximumResumptions) gates")
            }
            let context = resumed.value("context") ?? [:]
            guard case .table = context else {
                throw CanonicalJSONObject.mismatch(
                    context, expected: "an object", at: resumed.path(of: "context"), file: resumed.file)
            }
            then = Resumption(
                context: context, expectation: try Self(canonicalJSON: &resumed, depth: depth + 1))
        }
        switch object.value("fails") {
        case nil: break
        case .bool(true)?: failures = .any
        case .array(let items)? where !items.isEmpty && items.count <= RuleTestCase.maximumFailingRules:
            let rules = try object.strings("fails") ?? []
            guard !rules.contains("") else { throw object.error("fails", "an empty rule designates no rule") }
            failures = .matching(rules)
        case let other?:
            throw CanonicalJSONObject.mismatch(
                other, expected: "true or 1 to \(RuleTestCase.maximumFailingRules) rules", at: object.path(of: "fails"),
                file: object.file)
        }
        try object.finish()
    }
}
