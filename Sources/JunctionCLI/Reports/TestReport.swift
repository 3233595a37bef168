import Junction

/// What `junction test` found in one bundle: each test's outcome and, with
/// `--coverage`, which rules and Lua lines ran.
struct TestReport {
    /// A rule the bundle declares, and whether any test ran it.
    struct DeclaredRule {
        let name: String
        let location: String
        let ran: Bool
    }

    /// The bundle's folder.
    let directory: String
    /// `name@version`, or `nil` when the bundle did not load.
    let label: String?
    /// Why the bundle did not load.
    let loadError: BundleError?
    /// Every selected test's outcome, in file order.
    let outcomes: [RuleTestOutcome]
    /// How many tests the bundle has, selected or not.
    let testCount: Int
    /// Line coverage of the rules, when asked for.
    let coverage: RuleCoverage?
    /// Every declared rule, when coverage was asked for.
    let rules: [DeclaredRule]
    /// Seconds the tests took.
    let seconds: Double

    var passed: Int { outcomes.filter(\.passed).count }
    var failed: Int { outcomes.count - passed }

    /// Runs the tests of the bundle at `directory` whose names `filter` accepts.
    static func run(directory: String, coverage: Bool, showLogs: Bool, filter: ((String) -> Bool)?) -> TestReport {
        run(
            LoadedBundle.load(directory, coverage: coverage, showLogs: showLogs), directory: directory,
            coverage: coverage, filter: filter)
    }

    /// Runs the tests of a bundle already loaded from `directory` (`bundle build` loads once
    /// for its tests, its check and its artifact).
    static func run(
        _ result: Result<LoadedBundle, BundleError>, directory: String, coverage: Bool, filter: ((String) -> Bool)?
    ) -> TestReport {
        let loaded: LoadedBundle
        switch result {
        case .success(let bundle): loaded = bundle
        case .failure(let error):
            return TestReport(
                directory: directory, label: nil, loadError: error, outcomes: [], testCount: 0, coverage: nil,
                rules: [], seconds: 0)
        }
        let start = ContinuousClock.now
        let tests = loaded.bundle.tests.filter { filter?($0.name) ?? true }
        let outcomes = tests.map { loaded.decider.run($0) }
        let elapsed = start.duration(to: .now).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        guard coverage else {
            return TestReport(
                directory: directory, label: loaded.label, loadError: nil, outcomes: outcomes,
                testCount: loaded.bundle.tests.count, coverage: nil, rules: [], seconds: seconds)
        }
        let ran = Set(outcomes.flatMap { $0.decisions.flatMap { $0.trace.steps.compactMap(\.location) } })
        let declarations = loaded.bundle.declarations
        var rules = declarations.redirects.map {
            DeclaredRule(name: "redirect \($0.from)", location: $0.location, ran: false)
        }
        rules += declarations.interceptors.map {
            DeclaredRule(name: "interceptor \($0.name)", location: $0.location, ran: false)
        }
        rules += declarations.groups.map { DeclaredRule(name: "group \($0.name)", location: $0.location, ran: false) }
        rules += declarations.fallbacks.map { DeclaredRule(name: "fallback", location: $0.location, ran: false) }
        rules = rules.map { DeclaredRule(name: $0.name, location: $0.location, ran: ran.contains($0.location)) }
        return TestReport(
            directory: directory, label: loaded.label, loadError: nil, outcomes: outcomes,
            testCount: loaded.bundle.tests.count, coverage: loaded.bundle.engines.coverage, rules: rules,
            seconds: seconds)
    }

    /// The percentage of declared rules that ran (100 when there are none).
    var rulePercent: Double {
        rules.isEmpty ? 100 : Double(rules.filter(\.ran).count) * 100 / Double(rules.count)
    }
}
