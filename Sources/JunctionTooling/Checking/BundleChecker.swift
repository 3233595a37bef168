package import JunctionCore
package import JunctionLua
package import Junction

/// Static findings on a rule bundle, for `junction check` and for CI: what a bundle that
/// loads and compiles still gets wrong.
///
/// - `redirect-cycle` (error; a warning when a `when` condition is involved): declared
///   redirects that lead back to where they started.
///   Redirects rules return with a literal target are followed too: a cycle through them
///   is a warning (``RuleRedirectCycleCheck``).
/// - `redirect-to-unexported` (warning): a redirect from a route links from outside the
///   app may open to one they may not (``UnexportedRedirectCheck``).
/// - `redirect-to-nothing` (warning): a redirect's target matches no route, is of no
///   dispatched scheme and is not redirected further.
/// - `redirect-leaves-policies` (error, acceptable in `allow:`): a declared redirect sends a route's URLs, before
///   its group policies run, to a route outside those groups or to another stack; or a
///   global interceptor or a group policy returns such a redirect, to a literal target,
///   before policies of the route have run (``ReturnedRedirectPolicyCheck``).
/// - `unreachable-route` (warning): higher-precedence routes take every URL of a route.
/// - `group-near-policy` (error, acceptable in `allow:`): a group without a policy whose
///   name is near one with a policy (`logni`).
/// - `group-without-policy` / `unused-group-policy` (warnings): a group routes list
///   without a `group()` policy, a policy for a group no route lists.
/// - `interceptor-matches-nothing` (warning): an interceptor's pattern matches no
///   route's URLs.
/// - `interceptor-pattern-partial` (warning): an interceptor's pattern matches some URLs
///   of a route and not others.
/// - `undefined-global` (error): code reads a global nothing defines, or a field a
///   sandbox library lacks (``UndefinedGlobalCheck``).
/// - `global-assignment` (error): a function that runs after loading assigns a global,
///   which always fails (``GlobalAssignmentCheck``).
/// - `unknown-source` (error): `req.source` compared with a string that is none of the
///   bundle's sources (``UnknownSourceCheck``).
/// - `unknown-context-key` (error): a rule reads a context key the manifest's schema does
///   not declare (``ContextReadCheck``).
/// - `unguarded-context-read` (warning): a function reads fields of a context key that
///   may be absent without testing it (``UnguardedContextReadCheck``).
/// - `unknown-request-field` (error): a rule reads a field a request does not have
///   (``RequestFieldCheck``).
/// - `bad-version-literal`, `version-compared-as-text` (errors) and
///   `prerelease-host-version` (warning): versions written so that they do not do what was
///   meant (``VersionCheck``).
/// - `bad-allowance` (error) and `unused-allowance` (warning): an entry of the manifest's
///   `allow:` that names a code no allowance can accept, or that accepts nothing
///   (``CheckReview``).
/// - With the capabilities of app versions (`junction check --app`), for each version
///   that loads the bundle (``CapabilityCheck``): `target-missing`, `dispatcher-missing`,
///   `redirect-to-missing-target` and `host-version-too-low` (errors): routes, dispatched
///   schemes and redirects that lead to what the version cannot open, and the
///   `minimum_host_version` that lets it load the bundle.
///
/// The last three, and the returned redirects, read the compiled code (``RuleAnalysis``);
/// each reports at most ``FindingLimits/perFile`` findings per file, and counts the rest.
///
/// The checks try sample URLs in place of every URL: each parameter filled with values
/// its type or regex accepts. They report the absence of something only when the
/// sampling was complete, and skip what they cannot sample (a regex beyond
/// ``RegexSampler``), so they miss some findings rather than invent them.
///
/// ```swift
/// let checker = try BundleChecker(bundle: RuleBundle.load(directory: "rules/example"))
/// for finding in checker.check() { print(finding) }
/// ```
package struct BundleChecker: Sendable {
    /// The decider whose bundle, routes and compiled rules are checked.
    package let decider: Decider

    /// A checker for what a decider runs. Group policies given to it as Swift
    /// interceptors count as covering their groups.
    /// - Parameter decider: A decider, usually of a bundle; without one only the routes
    ///   are checked.
    package init(decider: Decider) {
        self.decider = decider
    }

    /// A checker for a bundle, compiling its decider first.
    /// - Parameters:
    ///   - bundle: The loaded bundle.
    ///   - options: The decider's bounds; its redirect limit decides when a chain has no end.
    /// - Throws: `BundleError` when a declared redirect or interceptor pattern does not compile.
    package init(bundle: RuleBundle, options: DeciderOptions = DeciderOptions()) throws(BundleError) {
        self.init(decider: try Decider(bundle: bundle, options: options))
    }

    /// Runs every check and applies the manifest's `allow:` (``CheckReview``).
    /// - Parameter apps: As for ``check(apps:)``.
    /// - Returns: The findings that stand, and those accepted on purpose.
    package func review(apps: [CapabilitiesFile] = []) -> CheckReview {
        var review = CheckReview(
            findings: findings(apps: apps), allowances: decider.bundle?.manifest.allowances ?? [])
        review.findings = Self.sorted(review.findings)
        return review
    }

    /// Runs every check and applies the manifest's `allow:`: the findings that stand.
    /// - Parameter apps: The capabilities of app versions to check what the bundle leads
    ///   to against; those older than the manifest's `minimum_host_version` are no concern.
    /// - Returns: The findings, by file, line and column.
    package func check(apps: [CapabilitiesFile] = []) -> [Finding] {
        review(apps: apps).findings
    }

    /// Every check's findings, before allowances, in no particular order.
    private func findings(apps: [CapabilitiesFile]) -> [Finding] {
        let routes = decider.routes
        let declarations = decider.bundle?.declarations ?? RuleDeclarations()
        let lua = LuaSourceText(sources: decider.bundle?.sources ?? [], directory: decider.bundle?.directory)
        let broad = ParameterSamples.broad(covering: [routes] + (decider.redirects.table.map { [$0] } ?? []))
        var findings = RedirectCycleCheck(
            redirects: decider.redirects, maximumRedirects: decider.options.maximumRedirects, samples: broad, lua: lua
        ).findings()
        findings += RedirectTargetCheck(
            redirects: decider.redirects, routes: routes, hasFallbacks: !decider.fallbacks.isEmpty, samples: broad,
            lua: lua
        ).findings()
        findings += RedirectPolicyCheck(
            redirects: decider.redirects, routes: routes, policyGroups: decider.plan.policyGroups,
            maximumRedirects: decider.options.maximumRedirects, samples: broad, lua: lua
        ).findings()
        findings += UnreachableRouteCheck(routes: routes).findings()
        findings += GroupPolicyCheck(
            routes: routes, declarations: declarations, coveredGroups: decider.plan.policyGroups, lua: lua
        ).findings()
        findings += InterceptorPatternCheck(
            routes: routes, declarations: declarations, patternTable: decider.plan.patternTable, samples: broad,
            lua: lua
        ).findings()
        var analysis: RuleAnalysis?
        if let bundle = decider.bundle {
            do {
                let read = try bundle.engines.analysis()
                analysis = read
                findings += codeFindings(of: bundle, analysis: read, lua: lua)
                let graph = RuleRedirects(
                    analysis: read, declarations: bundle.declarations, routes: routes, redirects: decider.redirects,
                    maximumRedirects: decider.options.maximumRedirects)
                findings += RuleRedirectCycleCheck(graph: graph, lua: lua).findings()
                findings += UnexportedRedirectCheck(
                    graph: graph, redirects: decider.redirects, maximumRedirects: decider.options.maximumRedirects,
                    samples: broad, lua: lua
                ).findings()
            } catch {
                findings.append(
                    Finding(
                        .error, .loadError,
                        "the checks of undefined globals, global assignments, request sources and returned redirects "
                            + "could not read the rules' code: \(error.message) — the other checks ran; fix what stopped these and check again",
                        at: SourceLocation(file: lua.path(of: error.chunkName), line: error.line ?? 1, column: 1)))
            }
        }
        if let bundle = decider.bundle {
            findings += VersionCheck(
                analysis: analysis, manifest: bundle.manifest, directory: bundle.directory, lua: lua
            )
            .findings()
        }
        if !apps.isEmpty {
            findings += CapabilityCheck(decider: decider, apps: apps, analysis: analysis, samples: broad, lua: lua)
                .findings()
        }
        return findings
    }

    /// `findings` by file, line and column; those without a place last, in their order.
    private static func sorted(_ findings: [Finding]) -> [Finding] {
        findings.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case let (x?, y?) where x != y:
                return (x.file, x.line, x.column) < (y.file, y.line, y.column)
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// The findings read from the bundle's compiled code.
    private func codeFindings(of bundle: RuleBundle, analysis: RuleAnalysis, lua: LuaSourceText) -> [Finding] {
        UndefinedGlobalCheck(analysis: analysis, lua: lua).findings()
            + GlobalAssignmentCheck(analysis: analysis, lua: lua).findings()
            + UnknownSourceCheck(analysis: analysis, knownSources: bundle.manifest.knownSources, lua: lua).findings()
            + ContextReadCheck(analysis: analysis, schema: bundle.manifest.context, lua: lua).findings()
            + UnguardedContextReadCheck(analysis: analysis, schema: bundle.manifest.context, lua: lua).findings()
            + RequestFieldCheck(analysis: analysis, lua: lua).findings()
            + ReturnedRedirectPolicyCheck(
                analysis: analysis, declarations: bundle.declarations, routes: decider.routes,
                redirects: decider.redirects, policyGroups: decider.plan.policyGroups,
                maximumRedirects: decider.options.maximumRedirects, lua: lua
            ).findings()
    }
}
