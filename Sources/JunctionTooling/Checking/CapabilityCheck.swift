import JunctionCore
import JunctionLua
import Junction

/// Finds what app versions that load the bundle cannot open (`junction check --app`):
/// each capabilities file whose `host_version` is at least the manifest's
/// `minimum_host_version` is an app that runs the bundle, and on it
///
/// - a route whose target has no page or task, unless a rule of the route may answer it
///   with `respond` (``RuleAnalysis/nonResponding``; a Swift interceptor may too) or
///   compares versions and redirects (``RuleAnalysis/versionRouting``: the per-version
///   rule each finding advises first), opens nothing (`target-missing`, an error at the
///   route);
/// - a dispatched scheme without a dispatcher opens nothing, and its URLs never reach the
///   fallbacks (`dispatcher-missing`, an error at the scheme in `dispatchedSchemes`);
/// - a declared redirect, or a redirect a rule returns to a literal URL (a fallback's too),
///   that lands on either leads there (`redirect-to-missing-target`, an error at the
///   redirect) — declared redirects with each sample of their `from` pattern, landings as
///   ``RedirectLanding`` follows them;
/// - and the manifest lets it load the bundle (`host-version-too-low`, an error at
///   `minimum_host_version` naming the version, what it lacks, and the oldest app given
///   that lacks nothing).
///
/// A capabilities file older than `minimum_host_version` is no concern: that app never
/// loads the bundle.
struct CapabilityCheck {
    let decider: Decider
    /// The apps, in the order given; those the manifest keeps out are left out here.
    let apps: [CapabilitiesFile]
    /// The analysis of the rules' code; `nil` when it could not be made, and then every
    /// rule may respond and no returned redirect is known.
    let analysis: RuleAnalysis?
    let samples: ParameterSamples
    let lua: LuaSourceText

    /// The most targets, schemes or apps one finding names; the rest are counted.
    static let namesListed = 5

    /// The apps of `files` that load a bundle needing `minimum`.
    static func concerned(_ files: [CapabilitiesFile], minimum: SemanticVersion?) -> [CapabilitiesFile] {
        guard let minimum else { return files }
        return files.filter { !($0.capabilities.hostVersion < minimum) }
    }

    func findings() -> [Finding] {
        let apps = Self.concerned(self.apps, minimum: decider.bundle?.manifest.minimumHostVersion)
        guard !apps.isEmpty else { return [] }
        let routes = decider.routes
        let lacking: [[Int]] = routes.routes.indices.map { index in
            let missing = apps.indices.filter { !apps[$0].capabilities.opens(target: routes.routes[index].target) }
            return missing.isEmpty || isHandled(index) ? [] : missing
        }
        var undispatched: [String: [Int]] = [:]
        for scheme in routes.options.dispatchedSchemes {
            let missing = apps.indices.filter { !apps[$0].capabilities.dispatches(scheme: scheme) }
            if !missing.isEmpty { undispatched[scheme] = missing }
        }
        let map = Lacking(apps: apps, routes: routes, byRoute: lacking, byScheme: undispatched)

        var findings: [Finding] = []
        for (index, missing) in lacking.enumerated() where !missing.isEmpty {
            let route = routes.routes[index]
            let those = missing.count == 1 ? "that app" : "those apps"
            findings.append(
                Finding(
                    .error, .targetMissing,
                    "route \(MessageText.quoted(route.name)) (\(route.pattern)) leads to target "
                        + "\(MessageText.quoted(route.target)), which \(map.named(missing)) "
                        + "\(missing.count == 1 ? "has" : "have") no page or task for, so there it opens nothing — "
                        + "send those versions elsewhere with an interceptor of the route (route = "
                        + "\(MessageText.quoted(route.name)), run = function(req, ctx) if "
                        + "version.compare(ctx.app_version, \"\(map.newest(missing))\") <= 0 then return "
                        + "redirect(\"https://…\") end end), point the route at a target \(those) "
                        + "\(missing.count == 1 ? "has" : "have"), or remove it; \(map.raising(missing))",
                    at: route.location))
        }
        let routesFile = decider.bundle.flatMap {
            BundleFileText(directory: $0.directory, names: ["routes.yaml", "routes.yml", "routes.json"])
        }
        for scheme in undispatched.keys.sorted() {
            let missing = undispatched[scheme] ?? []
            findings.append(
                Finding(
                    .error, .dispatcherMissing,
                    "the route table hands URLs of scheme \(MessageText.quoted(scheme)) that no route takes to a "
                        + "dispatcher, which \(map.named(missing)) \(missing.count == 1 ? "does" : "do") not have, so "
                        + "there they open nothing and no fallback sees them — raise minimum_host_version above "
                        + "\(map.newest(missing)), or take \(MessageText.quoted(scheme)) out of dispatchedSchemes",
                    at: routesFile.map { $0.location(ofKey: "dispatchedSchemes", value: scheme) ?? $0.start }))
        }
        findings += declaredRedirectFindings(map)
        findings += returnedRedirectFindings(map)
        findings += manifestFindings(map)
        return findings
    }

    // MARK: - Routes a rule answers

    /// Whether a rule of route `index` may answer it with `respond`, or send some app
    /// versions elsewhere (``RuleAnalysis/versionRouting``): a step of its chain, or of a
    /// pattern interceptor that matches one of its URLs (all of them when its URLs cannot
    /// all be sampled), whose code may. Whether it does for the versions concerned is for
    /// the bundle's tests to prove.
    private func isHandled(_ index: Int) -> Bool {
        let plan = decider.plan
        var steps = plan.chains[index]
        if let table = plan.patternTable {
            let sampled = SampleURLs(ofRouteAt: index, in: decider.routes, samples: samples)
            if sampled.isComplete {
                for uri in sampled.urls {
                    for match in table.matches(uri) { steps += plan.patternSteps[match.routeIndex] }
                }
            } else {
                steps += plan.patternSteps.joined()
            }
        }
        return steps.contains { step in
            guard case .lua(let function) = step.body, let analysis else { return true }
            return !analysis.nonResponding.contains(function) || analysis.versionRouting.contains(function)
        }
    }

    // MARK: - Redirects

    /// Declared redirects that land, for some sample URL of their `from` pattern, on what
    /// an app cannot open.
    private func declaredRedirectFindings(_ map: Lacking) -> [Finding] {
        let redirects = decider.redirects
        var findings: [Finding] = []
        for sample in SampleURLs.ofRedirects(redirects, samples: samples) {
            for rule in sample.rules {
                for match in sample.matches {
                    let target = redirects.target(of: rule, for: match)
                    guard let landing = land(target), let (missing, place) = map.lacking(at: landing) else {
                        continue
                    }
                    let example = ([match.uri.string] + landing.passed + [landing.url]).joined(separator: " → ")
                    findings.append(
                        Finding(
                            .error, .redirectToMissingTarget,
                            "redirect from \(MessageText.quoted(rule.from)) to \(MessageText.quoted(rule.to)) "
                                + "leads to \(place), e.g. \(example) — redirect to a URL "
                                + "\(missing.count == 1 ? "that app opens" : "those apps open"), or only for "
                                + "versions after \(map.newest(missing)) (a when condition with version.compare); "
                                + map.raising(missing),
                            at: lua.location(declaredAt: rule.location, [.string(rule.to), .name("redirect")])))
                    break
                }
            }
        }
        return findings
    }

    /// Redirects the rules return, to a literal URL, that land on what an app cannot open.
    private func returnedRedirectFindings(_ map: Lacking) -> [Finding] {
        guard let analysis, let declarations = decider.bundle?.declarations else { return [] }
        var rules: [(function: Int, name: String)] = declarations.interceptors.map {
            ($0.function, "interceptor \(MessageText.quoted($0.name))")
        }
        rules += declarations.groups.map { ($0.function, "group(\(MessageText.quoted($0.name)))") }
        rules += declarations.fallbacks.map { ($0.function, "a fallback") }
        var findings: [Finding] = []
        for (function, name) in rules {
            var seen = Set<String>()
            for use in analysis.redirectTargets[function] ?? [] where seen.insert(use.name).inserted {
                guard let landing = land(use.name), let (missing, place) = map.lacking(at: landing) else { continue }
                let further = landing.passed.isEmpty ? "" : ", which declared redirects take on to \(landing.url),"
                findings.append(
                    Finding(
                        .error, .redirectToMissingTarget,
                        "\(name) returns redirect(\(MessageText.quoted(use.name)))\(further) and so leads to "
                            + "\(place) — redirect to a URL \(missing.count == 1 ? "that app opens" : "those apps open")"
                            + ", or only for versions after \(map.newest(missing)) (test version.compare(ctx.app_version, "
                            + "\"\(map.newest(missing))\") > 0 first); \(map.raising(missing))",
                        at: lua.location(
                            of: [.string(use.name), .name("redirect")], in: use.file, line: use.line, search: .near)))
            }
        }
        return FindingLimits.limited(
            findings.sorted { UndefinedGlobalCheck.precedes($0, $1) }, "redirects to what an app cannot open")
    }

    /// Where a redirect to `target` ends, as the other redirect checks see it.
    private func land(_ target: String) -> RedirectLanding? {
        RedirectLanding(
            target, hops: 1, routes: decider.routes, redirects: decider.redirects,
            maximumRedirects: decider.options.maximumRedirects)
    }

    // MARK: - The manifest

    /// For each app that lacks something the bundle leads to, the finding at the
    /// manifest's `minimum_host_version`.
    private func manifestFindings(_ map: Lacking) -> [Finding] {
        let manifest = decider.bundle?.manifest
        let file = decider.bundle.flatMap {
            BundleFileText(directory: $0.directory, names: ["manifest.yaml", "manifest.yml", "manifest.json"])
        }
        let location = file.map { $0.location(ofKey: "minimum_host_version") ?? $0.start }
        let apps = map.apps
        var findings: [Finding] = []
        for index in apps.indices {
            let targets = map.targets(lackedBy: index)
            let schemes = map.schemes(lackedBy: index)
            guard !targets.isEmpty || !schemes.isEmpty else { continue }
            let version = apps[index].capabilities.hostVersion
            var lacks: [String] = []
            if !targets.isEmpty {
                lacks.append(
                    "no page or task for target\(targets.count == 1 ? "" : "s") "
                        + Self.listed(targets.map(MessageText.quoted)))
            }
            if !schemes.isEmpty {
                lacks.append(
                    "no dispatcher for scheme\(schemes.count == 1 ? "" : "s") "
                        + Self.listed(schemes.map(MessageText.quoted)))
            }
            let opening =
                manifest?.minimumHostVersion.map { "minimum_host_version \($0) lets app \(apps[index].label) load" }
                ?? "the manifest sets no minimum_host_version, so app \(apps[index].label) loads"
            var raise = "raise minimum_host_version above \(version)"
            if let newer = map.oldestComplete(after: version) {
                raise += " (app \(apps[newer].label) has everything it leads to)"
            }
            findings.append(
                Finding(
                    .error, .hostVersionTooLow,
                    "\(opening) this bundle, but that app has \(lacks.joined(separator: " and ")), so what the "
                        + "bundle leads there opens nothing — send version \(version) and older elsewhere where the "
                        + "bundle leads them there (each finding at a route or redirect says how), or \(raise): then "
                        + "that app refuses the whole bundle, every other change in it too, and keeps the bundle it has",
                    at: location))
        }
        return findings
    }

    /// `a`, `a and b`, … up to ``namesListed`` names, then how many more.
    static func listed(_ names: [String]) -> String {
        let shown = Array(names.prefix(namesListed))
        let rest = names.count - shown.count
        return UnreachableRouteCheck.list(rest > 0 ? shown + ["\(rest) more"] : shown)
    }
}

extension CapabilityCheck {
    /// What each app that loads the bundle lacks: by route (the apps without its target),
    /// by dispatched scheme (the apps without its dispatcher).
    fileprivate struct Lacking {
        let apps: [CapabilitiesFile]
        let routes: RouteTable
        let byRoute: [[Int]]
        let byScheme: [String: [Int]]

        /// `app 6.0.0 (app-6.0.json)`, `apps 6.0.0 (a.json) and 6.0.5 (b.json)`.
        func named(_ indices: [Int]) -> String {
            (indices.count == 1 ? "app " : "apps ") + CapabilityCheck.listed(indices.map { apps[$0].label })
        }

        /// What raising `minimum_host_version` for the apps `indices` costs, in words.
        func raising(_ indices: [Int]) -> String {
            "raising minimum_host_version above \(newest(indices)) would make \(named(indices)) refuse the whole "
                + "bundle, every other change in it too"
        }

        /// The newest version among `indices`.
        func newest(_ indices: [Int]) -> SemanticVersion {
            indices.map { apps[$0].capabilities.hostVersion }.max() ?? SemanticVersion(0)
        }

        /// The apps that cannot open where `landing` ends, and that place in words; `nil`
        /// when every app can.
        func lacking(at landing: RedirectLanding) -> (apps: [Int], place: String)? {
            switch landing.place {
            case .route(let route):
                guard let index = routes.index(ofRouteNamed: route.name), !byRoute[index].isEmpty else { return nil }
                let missing = byRoute[index]
                return (
                    missing,
                    "route \(MessageText.quoted(route.name)), whose target \(MessageText.quoted(route.target)) "
                        + "\(named(missing)) \(missing.count == 1 ? "has" : "have") no page or task for"
                )
            case .dispatcher(let scheme):
                guard let missing = byScheme[scheme] else { return nil }
                return (
                    missing,
                    "the \(scheme) dispatcher, which \(named(missing)) \(missing.count == 1 ? "does" : "do") not have"
                )
            }
        }

        /// The targets app `index` has no page or task for, in route order, each once.
        func targets(lackedBy index: Int) -> [String] {
            var seen = Set<String>()
            return zip(routes.routes, byRoute).compactMap { route, missing in
                missing.contains(index) && seen.insert(route.target).inserted ? route.target : nil
            }
        }

        /// The dispatched schemes app `index` has no dispatcher for, sorted.
        func schemes(lackedBy index: Int) -> [String] {
            byScheme.filter { $0.value.contains(index) }.keys.sorted()
        }

        /// The oldest app newer than `version` that lacks nothing.
        func oldestComplete(after version: SemanticVersion) -> Int? {
            apps.indices.filter { index in
                version < apps[index].capabilities.hostVersion && !byRoute.contains { $0.contains(index) }
                    && !byScheme.values.contains { $0.contains(index) }
            }.min { apps[$0].capabilities.hostVersion < apps[$1].capabilities.hostVersion }
        }
    }
}
