import JunctionCore
import Junction

/// Finds declared redirects that lead back to where they started.
///
/// From sample URLs of every `from` pattern it follows redirects as the decider does —
/// the best-matching `from` first, its redirects in declaration order — but takes every
/// redirect whose `when` might hold as a branch, and stops at the first without one. A
/// URL seen twice on one path is a loop the decider refuses; a path that passes the
/// redirect limit while repeating a redirect is a chain without end. Each cycle of
/// redirects is reported once: an error when no `when` is involved, else a warning.
struct RedirectCycleCheck {
    let redirects: RedirectRules
    /// The decider's limit on redirects per request.
    let maximumRedirects: Int
    let samples: ParameterSamples
    let lua: LuaSourceText

    /// One declaration: its `from` pattern's route in the redirect table, its position there.
    private struct RuleID: Hashable, Comparable {
        var route: Int
        var position: Int

        static func < (a: RuleID, b: RuleID) -> Bool {
            (a.route, a.position) < (b.route, b.position)
        }
    }

    /// One redirect taken on a path.
    private struct Hop {
        var rule: RuleID
        var url: String
        var target: String
        /// Where the `when` conditions that decide whether this hop happens are declared.
        var conditions: [String]
    }

    /// A cycle found, its hops starting at its first declared redirect.
    private struct Cycle {
        var hops: [Hop]
        var endless: Bool
        var isCertain: Bool { hops.allSatisfy(\.conditions.isEmpty) }
        /// Lower is reported in preference: a certain loop, then one that repeats a URL.
        var rank: Int { (isCertain ? 0 : 2) + (endless ? 1 : 0) }
    }

    /// How many URLs one sample's exploration may visit, branches included.
    private static let budgetPerSample = 256

    func findings() -> [Finding] {
        guard let table = redirects.table else { return [] }
        var cycles: [[RuleID]: Cycle] = [:]
        var order: [[RuleID]] = []

        func record(_ hops: [Hop], endless: Bool) {
            let start = hops.indices.min { hops[$0].rule < hops[$1].rule } ?? 0
            let rotated = Array(hops[start...] + hops[..<start])
            let key = rotated.map(\.rule)
            let cycle = Cycle(hops: rotated, endless: endless)
            if let existing = cycles[key] {
                guard cycle.rank < existing.rank else { return }
            } else {
                order.append(key)
            }
            cycles[key] = cycle
        }

        func follow(_ url: String, visited: [String], hops: [Hop], budget: inout Int) {
            guard budget > 0, let uri = try? URI(url) else { return }
            budget -= 1
            var conditions: [String] = []
            for match in table.matches(uri) {
                for (position, rule) in redirects.rulesByRoute[match.routeIndex].enumerated() {
                    if rule.condition != nil { conditions.append(rule.location) }
                    let target = redirects.target(of: rule, for: match)
                    let hop = Hop(
                        rule: RuleID(route: match.routeIndex, position: position), url: url, target: target,
                        conditions: conditions)
                    if let first = visited.firstIndex(of: target) {
                        record(Array(hops[first...]) + [hop], endless: false)
                    } else if hops.count >= maximumRedirects {
                        if let repeated = Self.repetition(in: hops + [hop]) { record(repeated, endless: true) }
                    } else {
                        follow(target, visited: visited + [target], hops: hops + [hop], budget: &budget)
                    }
                    if rule.condition == nil { return }
                }
            }
        }

        for routeIndex in table.routes.indices {
            for uri in SampleURLs(ofRouteAt: routeIndex, in: table, samples: samples).urls {
                var budget = Self.budgetPerSample
                follow(uri.string, visited: [uri.string], hops: [], budget: &budget)
            }
        }
        return order.compactMap { cycles[$0] }.map(finding)
    }

    /// The hops between the first redirect taken twice and its second time.
    private static func repetition(in hops: [Hop]) -> [Hop]? {
        var firstSeen: [RuleID: Int] = [:]
        for (index, hop) in hops.enumerated() {
            if let first = firstSeen[hop.rule] { return Array(hops[first..<index]) }
            firstSeen[hop.rule] = index
        }
        return nil
    }

    private func finding(_ cycle: Cycle) -> Finding {
        let rules = cycle.hops.map { redirects.rulesByRoute[$0.rule.route][$0.rule.position] }
        let chain = (rules + [rules[0]]).enumerated().map { index, rule in
            index == rules.count ? "\"\(rule.from)\"" : "\"\(rule.from)\" (\(rule.location))"
        }.joined(separator: " → ")
        let urls = [cycle.hops[0].url] + cycle.hops.map(\.target)
        var message: String
        if cycle.endless {
            message =
                "redirect chain without end: \(chain); each pass leads to a new URL ("
                + urls.joined(separator: " → ") + " → …), so requests are refused after \(maximumRedirects) redirects"
        } else {
            message = "redirect cycle: \(chain); \(urls.joined(separator: " → ")) is refused as a redirect loop"
        }
        message += " — change a target or remove one of the redirects"
        let conditions = cycle.hops.flatMap(\.conditions).reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        if !conditions.isEmpty {
            message =
                "possible " + message + " (it depends on the when conditions at \(conditions.joined(separator: ", ")))"
        }
        return Finding(
            cycle.isCertain ? .error : .warning, .redirectCycle, message,
            at: lua.location(declaredAt: rules[0].location, [.string(rules[0].to), .name("redirect")]))
    }
}
