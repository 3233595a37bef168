import JunctionArtifact
import JunctionCore
import JunctionLua
import Junction

extension UpdateAcceptance {
    /// When an update's own tests and the app's invariants run.
    enum SelfChecks {
        /// Before the update is returned: a refusal throws.
        case now
        /// Not yet: the caller runs ``UpdateAcceptance/runSelfChecks(_:)`` later — the
        /// embedded bundle, which decides at once.
        case deferred
        /// Not at all, nor are its tests decoded: a stamped update, whose checks ran when
        /// it was accepted.
        case skipped
    }

    /// The checks after the artifact's own: the host version, the bundle, and — as
    /// `selfChecks` says — its tests and the app's invariants.
    func accept(
        _ artifact: Artifact, pointer: VerifiedPointer?, identity: UpdateIdentity, selfChecks: SelfChecks = .now
    ) throws(UpdateRefusal) -> AcceptedUpdate {
        let header = artifact.header
        let label = "\(header.name)@\(header.version)"
        // The header's minimum first: refused before any member is decoded or compiled.
        try checkHost(minimum: header.minimumHostVersion, of: label, field: "the artifact's minimum_host_version")
        let bundle = try RuleBundle(
            artifact: artifact, json: policy.jsonLimits, limits: policy.sandboxLimits, logger: policy.ruleLogger,
            readingTests: selfChecks != .skipped, routesValidatedBefore: selfChecks == .skipped)
        try checkHost(
            minimum: bundle.manifest.minimumHostVersion?.description, of: label,
            field: "the manifest's minimum_host_version")

        guard selfChecks == .now else {
            return AcceptedUpdate(
                pointer: pointer, artifact: artifact, bundle: bundle,
                decider: try decider(for: bundle, interceptors: policy.interceptors), identity: identity)
        }
        // The bundle's own tests run against the bundle alone, as `junction test` and
        // `junction bundle build` ran them: the app's interceptors are not theirs to know.
        let own = try decider(for: bundle, interceptors: [])
        try runSelfTests(bundle, on: own, label: label)
        // The invariants are the app's: they hold under the decider the app will use.
        let decider = policy.interceptors.isEmpty ? own : try decider(for: bundle, interceptors: policy.interceptors)
        try checkInvariants(on: decider, label: label)
        return AcceptedUpdate(
            pointer: pointer, artifact: artifact, bundle: bundle, decider: decider, identity: identity)
    }

    /// The checks ``accept(_:pointer:identity:selfChecks:)`` deferred: the bundle's own
    /// tests, against the bundle alone, and the app's invariants, under its decider.
    /// - Parameter update: An update accepted with its checks deferred.
    /// - Throws: ``UpdateRefusal``: `selfTestFailed` or `invariantFailed`.
    func runSelfChecks(_ update: AcceptedUpdate) throws(UpdateRefusal) {
        let label = "\(update.artifact.header.name)@\(update.artifact.header.version)"
        // On engines of their own: the bundle already decides for the app, and its pool
        // lends its one compiled engine to whoever asks first — the app's first decisions
        // would have compiled another while the checks held it.
        let bundle: RuleBundle
        do {
            bundle = try RuleBundle(
                directory: update.bundle.directory, manifest: update.bundle.manifest, routes: update.bundle.routes,
                sources: update.bundle.sources, tests: update.bundle.tests, limits: policy.sandboxLimits,
                logger: policy.ruleLogger)
        } catch {
            throw UpdateRefusal.bundleInvalid(update.bundle.directory, error.diagnostics)
        }
        let own = try decider(for: bundle, interceptors: [])
        try runSelfTests(bundle, on: own, label: label)
        let app = policy.interceptors.isEmpty ? own : try decider(for: bundle, interceptors: policy.interceptors)
        try checkInvariants(on: app, label: label)
    }

    private func checkHost(minimum text: String?, of label: String, field: String) throws(UpdateRefusal) {
        guard let text else { return }
        guard let minimum = SemanticVersion(text) else {
            throw UpdateRefusal(
                .bundleInvalid,
                "\(label): \(field) \"\(text.prefix(64))\" is not a version; build the bundle with a version "
                    + "such as 5.2.0")
        }
        if policy.hostVersion < minimum {
            throw UpdateRefusal(
                .hostTooOld,
                "\(label) needs a host of version \(minimum) or later (\(field)); this app is \(policy.hostVersion): "
                    + "it is for a newer release of the app, which will take it")
        }
    }

    private func decider(for bundle: RuleBundle, interceptors: [SwiftInterceptor]) throws(UpdateRefusal) -> Decider {
        do {
            if bundle.validatedBefore {
                return try Decider(reopened: bundle, interceptors: interceptors, options: policy.deciderOptions)
            }
            return try Decider(bundle: bundle, interceptors: interceptors, options: policy.deciderOptions)
        } catch {
            throw UpdateRefusal.bundleInvalid(bundle.directory, error.diagnostics)
        }
    }

    private func runSelfTests(_ bundle: RuleBundle, on decider: Decider, label: String) throws(UpdateRefusal) {
        // What the tests' rules print goes to the self-test logger: not the app's traffic.
        let failing = RuleOutput.divert(to: policy.selfTestLogger) {
            bundle.tests.map { decider.run($0) }.filter { !$0.passed }
        }
        guard let first = failing.first else { return }
        let location = "\(first.test.location.file):\(first.test.location.line)"
        throw UpdateRefusal(
            .selfTestFailed,
            "\(label): its test \"\(first.test.name)\" (\(location)) fails on this device: "
                + Self.summary(of: first.failures)
                + (failing.count > 1 ? " (and \(failing.count - 1) more of its tests fail)" : "")
                + "; run junction test on the bundle, fix it and publish it again")
    }

    private func checkInvariants(on decider: Decider, label: String) throws(UpdateRefusal) {
        for (invariant, test) in zip(policy.invariants, invariantTests) {
            let outcome = decider.run(test)
            guard !outcome.passed else { continue }
            let named = invariant.name == invariant.url ? invariant.url : "\"\(invariant.name)\" (\(invariant.url))"
            throw UpdateRefusal(
                .invariantFailed,
                "\(label) breaks the app's invariant \(named): " + Self.summary(of: outcome.failures)
                    + "; a bundle cannot take away what the app registers: fix its routes or rules")
        }
    }

    /// At most three failed expectations, the rest counted: a test's failures are bounded
    /// by what it expects, but a message is read by people.
    private static func summary(of failures: [String]) -> String {
        let shown = failures.prefix(3).joined(separator: "; ")
        return failures.count > 3 ? shown + "; and \(failures.count - 3) more" : shown
    }
}
