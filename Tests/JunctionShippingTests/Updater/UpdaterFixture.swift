import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import JunctionCore

/// An updater on a ``FakeHost`` and a store in a fresh directory, judging dates by a clock
/// the test sets (the fixture's artifacts are dated around ``ShippingFixture/now``).
final class UpdaterFixture: Sendable {
    typealias Fixture = InstallerFixture

    let host = FakeHost()
    let directory = InstallerFixture.directory()
    let log = CapturedLog()
    private let time = Locked(ShippingFixture.now)

    /// A configuration for tests: short deadline, no spread, a long interval (tests poll
    /// with `checkNow`), a 2 s backoff base.
    static let configuration = UpdaterConfiguration(
        interval: .seconds(3_600), intervalSpread: 0, attemptDeadline: .milliseconds(300),
        backoff: RetrySchedule(base: .seconds(2), cap: .seconds(300)))

    deinit { InstallerFixture.remove(directory) }

    var now: Date {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }

    var store: BundleStore { BundleStore(directory: directory) }

    /// An updater launched on the fixture's store, as an app launch would.
    func launch(
        configuration: UpdaterConfiguration = UpdaterFixture.configuration,
        whenStale: StaleBundlePolicy = .keepDeciding, channel: URL = FakeHost.channelURL,
        transport: (any UpdateTransport)? = nil
    ) throws -> BundleUpdater {
        try BundleUpdater.launch(
            channel: channel, acceptance: InstallerFixture.acceptance, store: store,
            embedded: InstallerFixture.embedded, whenStale: whenStale, configuration: configuration,
            transport: transport ?? host,
            wallClock: { [self] in now }, logger: log.logger)
    }

    /// Every file under the store's directory with its bytes: what "nothing persisted
    /// changes" compares.
    func persisted() -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let root = URL(fileURLWithPath: directory)
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return files }
        while let path = walker.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) {
                files[path] = Array(data)
            }
        }
        return files
    }
}
