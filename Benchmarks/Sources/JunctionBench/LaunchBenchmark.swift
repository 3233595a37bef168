import Foundation
import Junction
import JunctionCore
import JunctionShipping

/// `launch.*`: what an app pays at launch before its first decision, for the benchmark
/// bundle (n = 1,000 routes) and `rules/example` — through `BundleInstaller.launch`, as an
/// app launches:
///
/// - `launch.persisted`: from a store holding an update accepted earlier (its pointer,
///   artifact and state read from disk) to the first decision returned;
/// - `launch.embedded`: the first launch, nothing stored: the artifact embedded in the
///   app accepted, then the first decision;
/// - `launch.first_open`: `launch.persisted`, then a `Router` on the installer's policy
///   opening the first URL to its page, on the main actor.
///
/// Milliseconds per launch; compare `update.activate` in the same run.
struct LaunchBenchmark: BenchmarkGroup {
    let name = "launch"

    func run(with harness: Harness, selecting selected: (String) -> Bool) throws(BenchmarkFailure) -> [Measurement] {
        let names = ["persisted", "embedded", "first_open"]
        guard names.contains(where: { selected("\(name).\($0)") }) else { return [] }
        var contenders: [Contender] = []
        var stores: [BundleStore] = []
        defer { stores.forEach(LaunchFixture.remove) }
        for fixture in try LaunchFixture.all() {
            let persisted = try fixture.persistedStore()
            let empty = fixture.emptyStore()
            stores += [persisted, empty]
            try check(fixture, persisted: persisted, empty: empty)
            let n = fixture.source.routes.routes.count
            // What a launch made is kept until the timed call ends, then let go untimed: an app
            // launches once, and never pays for tearing its policy down before its first open.
            let launched = LaunchedObjects()
            func add(_ contender: String, _ body: @escaping () -> ([AnyObject], Int)) {
                guard selected("\(name).\(contender)") else { return }
                contenders.append(
                    Contender(
                        name: "\(name).\(contender)", n: n, operationsPerIteration: 1,
                        body: { iterations in
                            var sink = 0
                            for _ in 0..<iterations {
                                let (made, result) = body()
                                launched.objects += made
                                sink &+= result
                            }
                            return sink
                        }, afterEachCall: { launched.objects.removeAll() }))
            }
            add("persisted") {
                let (installer, decision) = fixture.launch(from: persisted)
                return ([installer], decision.redirects.count + 1)
            }
            add("embedded") {
                let (installer, decision) = fixture.launch(from: empty)
                return ([installer], decision.redirects.count + 1)
            }
            add("first_open") {
                let (router, opened) = Self.firstOpen(fixture, from: persisted)
                return (router, opened ? 1 : 0)
            }
            StandardError.print(
                "\(name).\(fixture.label): \(fixture.artifact.count) bytes, \(n) routes, "
                    + "first open \(fixture.firstURL) → \(fixture.firstTarget)")
        }
        return harness.measureInMilliseconds(contenders)
    }

    /// What the launches of one sample made, let go after it.
    private final class LaunchedObjects {
        var objects: [AnyObject] = []
    }

    /// Launches from `store`, makes a router on the installer's policy and opens the first
    /// URL: the installer and router, and whether the page was pushed.
    private static func firstOpen(_ fixture: LaunchFixture, from store: BundleStore) -> ([AnyObject], Bool) {
        let (installer, _) = fixture.launch(from: store)
        let policy = installer.policy
        let (url, source, target) = (fixture.firstURL, fixture.firstSource, fixture.firstTarget)
        let (router, opened) = MainActorPump.run { @MainActor () -> (Router, Bool) in
            let router = Router(policy: policy)
            router.register(page: target) { request in request.url }
            if case .opened = await router.open(url, source: source) { return (router, true) }
            return (router, false)
        }
        return ([installer, router], opened)
    }

    /// Every launch must do what it says before it is timed: decide under the persisted
    /// update, or the embedded one, and open the first page.
    private func check(_ fixture: LaunchFixture, persisted: BundleStore, empty: BundleStore) throws(BenchmarkFailure) {
        let fromStore = fixture.launch(from: persisted)
        let fromApp = fixture.launch(from: empty)
        let origins = (fromStore.installer.policy.current.origin, fromApp.installer.policy.current.origin)
        guard origins == (.persisted, .embedded), case .open = fromStore.decision.outcome,
            case .open = fromApp.decision.outcome
        else {
            throw BenchmarkFailure(
                "\(name).\(fixture.label): launched from \(origins.0) and \(origins.1), deciding "
                    + "\(fromStore.decision.outcome) and \(fromApp.decision.outcome)")
        }
        guard Self.firstOpen(fixture, from: persisted).1 else {
            throw BenchmarkFailure("\(name).first_open: \(fixture.firstURL) did not open \(fixture.firstTarget)")
        }
    }

    func report(_ measurements: [Measurement]) -> String {
        var lines = ["\(name): milliseconds from launch to the first decision (n: routes)"]
        for measurement in measurements {
            lines.append(
                "  " + measurement.name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "%6d %10.3f ms", measurement.n, measurement.nanosecondsPerOperation / 1e6))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
