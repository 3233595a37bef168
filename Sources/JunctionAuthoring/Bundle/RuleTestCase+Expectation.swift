import JunctionCore
import JunctionLua

extension RuleTestCase {
    /// The keys `expect:` takes, in the order messages list them.
    static let expectationKeys = [
        "route", "params", "redirect", "reject", "code", "reason", "cause", "gate", "respond", "unmatched",
        "hand_over", "then", "fails",
    ]

    /// The outcome each outcome key says the decision has, and what it means in a message;
    /// keys of different outcomes cannot both hold.
    private static let outcomes: [String: (outcome: Int, meaning: String)] = [
        "route": (0, "it opens a route"),
        "reject": (1, "a rule or the access check refuses it"),
        "code": (1, "it is refused with that code"),
        "reason": (1, "it is refused with that reason"),
        "cause": (1, "it is refused for that cause"),
        "gate": (2, "a gate opens first"),
        "respond": (3, "a rule answers it"),
        "unmatched": (4, "nothing takes it"),
        "hand_over": (5, "a dispatcher takes it"),
    ]

    /// Reads a test's `expect:`. A value that cannot mean what it says (`redirect: false`,
    /// `code: 42`) and expectations that can never hold together (`route:` with `reject:`)
    /// are errors at their line and column, saying what to write instead.
    /// - Parameters:
    ///   - schema: The manifest's context schema, which types `then:`'s `context:`.
    ///   - depth: How many `then:` it is within.
    static func readExpectation(
        _ node: YAMLNode, _ yaml: inout YAMLReader, schema: ContextSchema? = nil, depth: Int = 0
    ) -> Expectation? {
        let what = depth == 0 ? "expect" : "then"
        let keys = depth == 0 ? expectationKeys : ["context"] + expectationKeys
        guard let map = yaml.mapping(node, what) else { return nil }
        var expectation = Expectation()
        var given: [(key: String, mark: YAMLMark)] = []
        var thenMark: YAMLMark?
        for (key, value) in yaml.pairs(of: map) {
            // then:'s own context, read by readResumption.
            if depth > 0, key.text == "context" { continue }
            guard let name = key.text, expectationKeys.contains(name) else {
                let text = key.text ?? "(not text)"
                yaml.error(
                    "unknown key \"\(text)\" in \(what); expected one of " + keys.joined(separator: ", ")
                        + NearestName.suggestion(for: text, among: keys), key.mark)
                continue
            }
            given.append((name, key.mark))
            switch name {
            case "route":
                expectation.route = text(
                    value, "route", "a route name; route: takes the name of the route the request opens", &yaml)
            case "params":
                if case .table(let fields) = yaml.ruleValue(value, "expect.params", requireTable: true) {
                    expectation.params = fields
                }
            case "redirect": readRedirect(value, into: &expectation, &yaml)
            case "reject":
                let earlier = expectation.reason
                if readReject(value, into: &expectation, &yaml), earlier != nil { reasonTwice(value, &yaml) }
            case "code": expectation.code = code(value, &yaml)
            case "reason":
                if expectation.reason != nil { reasonTwice(value, &yaml) }
                expectation.reason = text(
                    value, "reason",
                    "a reason; reason: takes the text the request is refused with (for any reason, leave it out)",
                    &yaml)
            case "cause": expectation.cause = cause(value, &yaml)
            case "gate":
                expectation.gate = text(value, "gate", "a URL; gate: takes the URL the gate opens first", &yaml)
            case "respond": expectation.respond = yaml.ruleValue(value, "respond", requireTable: false)
            case "unmatched":
                expectation.unmatched = onlyTrue(value, "unmatched", &yaml)
            case "hand_over":
                expectation.handOver = text(
                    value, "hand_over", "a scheme; hand_over: takes the scheme whose dispatcher gets the URL", &yaml)?
                    .lowercased()
            case "then":
                thenMark = key.mark
                expectation.then = readResumption(value, &yaml, schema: schema, depth: depth + 1)
            default:  // "fails", the last of expectationKeys
                expectation.failures = failures(value, &yaml) ?? .never
            }
        }
        if given.isEmpty {
            yaml.error(
                "\(what): says nothing to check; give "
                    + expectationKeys.dropLast().joined(separator: ", ") + " or " + expectationKeys.last!,
                node.mark)
        }
        if let thenMark, expectation.gate == nil {
            yaml.error(
                "then: says what the request decides after a gate, resumed; give the gate it follows too "
                    + "(gate: myapp://login)",
                thenMark)
        }
        checkCombinations(expectation, given, &yaml)
        return expectation
    }

    /// `then: { context: {...}, route: ... }`: the context keys that change when the gate's
    /// page finishes, and what the resumed request decides; at most
    /// ``RuleTestCase/Expectation/maximumResumptions`` deep.
    private static func readResumption(
        _ node: YAMLNode, _ yaml: inout YAMLReader, schema: ContextSchema?, depth: Int
    ) -> Expectation.Resumption? {
        guard depth <= Expectation.maximumResumptions else {
            yaml.error(
                "then: follows more than \(Expectation.maximumResumptions) gates, more than may wait behind one "
                    + "another",
                node.mark)
            return nil
        }
        guard let map = yaml.mapping(node, "then") else { return nil }
        var context: RuleValue = [:]
        if let pair = map.first(where: { $0.key.text == "context" }) {
            context = yaml.contextValue(pair.value, schema: schema, allowingNull: true)
        }
        guard let expectation = readExpectation(node, &yaml, schema: schema, depth: depth) else { return nil }
        return Expectation.Resumption(context: context, expectation: expectation)
    }

    // MARK: - Values

    /// A value that must be text: a plain `true`, `false` or `null` is not (`route: false`),
    /// nor is a list or a mapping.
    private static func text(_ node: YAMLNode, _ key: String, _ what: String, _ yaml: inout YAMLReader) -> String? {
        guard let scalar = node.scalar else {
            yaml.error("\(key): must be text, not a list or a mapping", node.mark)
            return nil
        }
        switch yaml.ruleValue(node, key, requireTable: false) {
        case .bool, .nil:
            yaml.error("\(key): \(shown(scalar)) is not \(what)", node.mark)
            return nil
        default:
            return scalar.text
        }
    }

    /// `redirect: URL` — where the redirects end — or `redirect: none`: not redirected.
    private static func readRedirect(_ node: YAMLNode, into expectation: inout Expectation, _ yaml: inout YAMLReader) {
        guard let scalar = node.scalar else {
            yaml.error("redirect: must be a URL or none, not a list or a mapping", node.mark)
            return
        }
        switch yaml.ruleValue(node, "redirect", requireTable: false) {
        case .bool(true):
            yaml.error(
                "redirect: true is not a URL; give the URL the redirects end at (redirect: https://m.example.com/x)",
                node.mark)
        case .bool(false), .nil:
            yaml.error(
                "redirect: \(shown(scalar)) is not a URL; to expect that the request is not redirected, "
                    + "write redirect: none",
                node.mark)
        case .string("none") where scalar.isPlain && scalar.tag == nil:
            expectation.noRedirect = true
        default:
            do {
                _ = try URI(scalar.text)
                expectation.redirect = scalar.text
            } catch {
                yaml.error(
                    "redirect: \(shown(scalar)) is not a URL (\(error)); give the URL the redirects end at, "
                        + "or none for a request that is not redirected",
                    node.mark)
            }
        }
    }

    /// `reject: true`, or `reject: REASON` (the same as `reject: true` with `reason:`).
    /// - Returns: Whether it gave a reason.
    private static func readReject(
        _ node: YAMLNode, into expectation: inout Expectation, _ yaml: inout YAMLReader
    ) -> Bool {
        guard let scalar = node.scalar else {
            yaml.error("reject: must be true or the reason, not a list or a mapping", node.mark)
            return false
        }
        switch yaml.ruleValue(node, "reject", requireTable: false) {
        case .bool(true):
            expectation.reject = true
        case .bool(false):
            yaml.error(
                "reject: false says only what does not happen; expect what does: route:, gate:, respond:, "
                    + "unmatched: true or hand_over:",
                node.mark)
        case .nil:
            yaml.error(
                "reject: needs true, or the reason the request is refused with (reject: store closed)", node.mark)
        case .int(let number):
            yaml.error(
                "reject: \(number) is a number, not a reason; for a request refused with that code, write code: "
                    + "\(number)",
                node.mark)
        default:
            expectation.reject = true
            expectation.reason = scalar.text
            return true
        }
        return false
    }

    /// `code: 451`: a whole number from 100 to 999, as a `reject` verdict's code is.
    private static func code(_ node: YAMLNode, _ yaml: inout YAMLReader) -> Int? {
        guard let scalar = node.scalar else {
            yaml.error("code: must be a whole number from 100 to 999, not a list or a mapping", node.mark)
            return nil
        }
        let problems = yaml.diagnostics.count
        let value = yaml.ruleValue(node, "code", requireTable: false)
        if case .int(let number) = value, (100...999).contains(number) { return Int(number) }
        guard yaml.diagnostics.count == problems else { return nil }  // a tag it does not fit, said already
        let problem =
            switch value {
            case .int: "is outside 100–999"
            case .string(let text) where Int(text).map((100...999).contains) == true:
                "is text; write the number unquoted, code: \(text)"
            case .string: "is text"
            default: "is not a whole number"
            }
        yaml.error(
            "code: \(shown(scalar)) \(problem); a rejection's code is a whole number "
                + "from 100 to 999, such as 403",
            node.mark)
        return nil
    }

    /// `cause: redirect_loop`: one of ``Rejection/Cause``'s names.
    private static func cause(_ node: YAMLNode, _ yaml: inout YAMLReader) -> Rejection.Cause? {
        let names = [
            Rejection.Cause.rule, .notExported, .ruleFailed, .decisionBudget, .invalidURL, .redirectLoop,
            .tooManyRedirects, .gateLoop, .invalidRedirect, .undeclaredParameters,
        ].map(\.rawValue)
        guard let text = text(node, "cause", "a cause; cause: takes what refused the request", &yaml) else {
            return nil
        }
        if let cause = Rejection.Cause(rawValue: text) { return cause }
        yaml.error(
            "cause: \"\(text)\" is not one of " + names.joined(separator: ", ")
                + NearestName.suggestion(for: text, among: names),
            node.mark)
        return nil
    }

    /// A key that can only be `true` (`unmatched: true`); `false` would check nothing that
    /// the test's other expectations do not.
    private static func onlyTrue(_ node: YAMLNode, _ key: String, _ yaml: inout YAMLReader) -> Bool {
        switch node.scalar == nil ? nil : yaml.ruleValue(node, key, requireTable: false) {
        case .bool(true)?: return true
        case .bool(false)?:
            yaml.error(
                "\(key): false says only what does not happen; expect what does: route:, reject:, gate:, "
                    + "respond: or hand_over:",
                node.mark)
        default:
            yaml.error("\(key): must be true", node.mark)
        }
        return false
    }

    /// `fails: true`, `fails: RULE` or `fails: [RULE, ...]`, where a rule is designated by
    /// its name, its `file:line` or part of its error.
    private static func failures(_ node: YAMLNode, _ yaml: inout YAMLReader) -> Expectation.Failures? {
        let what = "the rule that fails: its name, its file:line or part of its error (fails: login)"
        if node.scalar != nil {
            switch yaml.ruleValue(node, "fails", requireTable: false) {
            case .bool(true): return .any
            case .bool(false):
                yaml.error(
                    "fails: false is what every test expects already (no rule may fail); leave it out", node.mark)
                return nil
            case .nil:
                yaml.error("fails: needs true, or \(what)", node.mark)
                return nil
            default: break
            }
        }
        let items: [YAMLNode]
        if let scalar = node.scalar {
            guard !scalar.text.isEmpty else {
                yaml.error("fails: \"\" designates no rule; give \(what)", node.mark)
                return nil
            }
            return .matching([scalar.text])
        } else if let list = node.sequence {
            guard list.count <= maximumFailingRules else {
                yaml.error(
                    "fails: lists \(list.count) rules, more than the \(maximumFailingRules) a test may; a test "
                        + "that expects that many failures should say fails: true",
                    node.mark)
                return nil
            }
            items = list
        } else {
            yaml.error("fails: must be true, \(what), or a list of them", node.mark)
            return nil
        }
        var rules: [String] = []
        for item in items where yaml.visit() {
            if let rule = text(item, "fails", "a rule; fails: takes \(what)", &yaml) {
                if rule.isEmpty {
                    yaml.error("fails: \"\" designates no rule; give \(what)", item.mark)
                } else {
                    rules.append(rule)
                }
            }
        }
        guard !items.isEmpty else {
            yaml.error("fails: [] lists no rule; give \(what), or true for any", node.mark)
            return nil
        }
        return rules.isEmpty ? nil : .matching(rules)
    }

    /// `reject: text` and `reason:` both give the reason.
    private static func reasonTwice(_ node: YAMLNode, _ yaml: inout YAMLReader) {
        yaml.error(
            "the reason is given twice, by reject: and reason:; write reject: true with reason:, or the reason in "
                + "reject: alone",
            node.mark)
    }

    /// The scalar as written: `false`, `"abc"`.
    private static func shown(_ scalar: YAMLScalar) -> String {
        scalar.isPlain ? (scalar.text.isEmpty ? "(nothing)" : scalar.text) : "\"\(scalar.text)\""
    }

    // MARK: - Combinations

    /// Errors for expectations that can never hold together: two outcomes, and the
    /// rejection's fields against one another.
    private static func checkCombinations(
        _ expectation: Expectation, _ given: [(key: String, mark: YAMLMark)], _ yaml: inout YAMLReader
    ) {
        var first: (key: String, outcome: Int, meaning: String)?
        for (key, mark) in given {
            guard let (outcome, meaning) = outcomes[key] else { continue }
            guard let earlier = first else {
                first = (key, outcome, meaning)
                continue
            }
            if earlier.outcome != outcome {
                yaml.error(
                    "\(earlier.key): and \(key): cannot both hold: \(earlier.key): means \(earlier.meaning), "
                        + "\(key): that \(meaning); keep the one this test means",
                    mark)
            }
        }
        func mark(of key: String) -> YAMLMark? { given.first { $0.key == key }?.mark }

        guard let cause = expectation.cause, let causeMark = mark(of: "cause") else { return }
        let deliberate: [Rejection.Cause] = [.rule, .notExported]
        let failure: [Rejection.Cause] = [.ruleFailed, .decisionBudget]
        if expectation.reject, !deliberate.contains(cause) {
            yaml.error(
                "cause: \(cause.rawValue) cannot hold with reject:, which means a rule or the access check refused "
                    + "(cause rule or not_exported); leave reject: out",
                causeMark)
        }
        if failure.contains(cause), expectation.failures == .never {
            yaml.error(
                "cause: \(cause.rawValue) means a rule failed, and a test fails on every rule failure it does not "
                    + "expect; add fails: with the rule (its name, its file:line or part of its error)",
                causeMark)
        }
        if let code = expectation.code, let codeMark = mark(of: "code"), let fixed = Self.code(of: cause),
            code != fixed
        {
            yaml.error(
                "code: \(code) cannot hold with cause: \(cause.rawValue), which is always refused with \(fixed)",
                codeMark)
        }
    }

    /// The code the decider always gives a cause, or `nil` when a rule chooses it.
    private static func code(of cause: Rejection.Cause) -> Int? {
        switch cause {
        case .rule, .invalidRedirect: nil
        case .notExported: 403
        case .invalidURL, .undeclaredParameters: 400
        case .redirectLoop, .tooManyRedirects, .gateLoop: 508
        case .ruleFailed, .decisionBudget: 500
        }
    }
}
