import Foundation
import Junction
import JunctionShipping
import JunctionTestSupport
import Testing

/// Crash consistency, operation by operation: each change the store makes is repeated with
/// its k-th file operation failing, for every k, and a fresh store on the same directory
/// must load exactly the state before the change or the state after it.
@Suite struct BundleStoreFaultTests {
    /// A change to a store that already holds `prior` commits.
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case commit
        case recordFailure
        case dropCurrent
        case pin

        var testDescription: String { rawValue }

        func apply(to store: BundleStore, prior: UInt64) throws(StoreError) {
            switch self {
            case .commit: try store.commit(StoreFixture.update(seq: prior + 1))
            case .recordFailure: try store.recordFailure(StoreFixture.failure(prior + 10))
            case .dropCurrent: try store.dropCurrent()
            case .pin: try store.pin(StoreFixture.pin(seq: prior + 1))
            }
        }
    }

    /// A store directory holding `prior` commits (seq 1…prior) and, after the first, a failure.
    private func prepared(prior: UInt64) throws -> String {
        let directory = try StoreFixture.directory()
        let store = BundleStore(directory: directory)
        for seq in UInt64(1)...max(1, prior) where prior > 0 {
            try store.commit(StoreFixture.update(seq: seq))
            if seq == 1 { try store.recordFailure(StoreFixture.failure(9)) }
        }
        return directory
    }

    @Test(arguments: Change.allCases, FaultyFileSystem.Mode.allCases)
    func everyFailedOperationLeavesTheOldStateOrTheNew(change: Change, mode: FaultyFileSystem.Mode) throws {
        for prior: UInt64 in 0...3 {
            // The states before and after, and how many operations the change makes.
            let reference = try prepared(prior: prior)
            defer { StoreFixture.remove(reference) }
            let before = BundleStore(directory: reference).load()
            let counting = FaultyFileSystem(failAt: nil)
            try change.apply(to: BundleStore(directory: reference, fileSystem: counting), prior: prior)
            let after = BundleStore(directory: reference).load()
            let operations = counting.operations
            #expect(before.problems.isEmpty && after.problems.isEmpty)
            if change != .dropCurrent || prior > 0 {
                #expect(before != after, "the change must change something for the test to mean anything")
                #expect(operations >= 8, "\(change) after \(prior) commits made only \(operations) operations")
            }

            let template = try prepared(prior: prior)
            defer { StoreFixture.remove(template) }
            for k in 0..<operations {
                // A copy of the prepared store: cheaper than committing again, and the same files.
                let directory = try StoreFixture.directory()
                defer { StoreFixture.remove(directory) }
                if prior > 0 { try FileManager.default.copyItem(atPath: template, toPath: directory) }
                let faulty = FaultyFileSystem(failAt: k, mode: mode)
                var thrown: StoreError?
                do throws(StoreError) {
                    try change.apply(to: BundleStore(directory: directory, fileSystem: faulty), prior: prior)
                } catch {
                    thrown = error
                }
                let loaded = BundleStore(directory: directory).load()
                let place = "\(change), \(prior) prior commits, operation \(k) of \(operations) failing (\(mode))"
                #expect(loaded.problems.isEmpty, "\(place): \(loaded.problems)")
                let oldOrNew = loaded == before || loaded == after
                #expect(oldOrNew, "\(place): neither old nor new: \(StoreFixture.summary(loaded))")
                if thrown != nil {
                    #expect(thrown?.message.contains("injected fault (errno 5)") == true, "\(place): \(thrown!)")
                }
                if let good = loaded.lastKnownGood {
                    #expect(StoreFixture.sha256(good.artifact) == good.identity.artifactSHA256, "\(place)")
                }
                if before.lastKnownGood != nil { #expect(loaded.lastKnownGood != nil, "\(place)") }

                // Whatever the fault left behind, the same change made again succeeds.
                try change.apply(to: BundleStore(directory: directory), prior: prior)
                let retried = BundleStore(directory: directory).load()
                #expect(retried == after, "\(place): retrying gave \(StoreFixture.summary(retried))")
            }
        }
    }

    @Test func aReadErrorOfTheStateFileFailsTheChangeInsteadOfBuildingOnAnOlderState() throws {
        let directory = try prepared(prior: 2)
        let faulty = FaultyFileSystem(failAt: 0)
        #expect(
            throws: StoreError(
                .io, path: directory + "/state.json",
                "read \(directory)/state.json: injected fault (errno 5)")
        ) {
            try BundleStore(directory: directory, fileSystem: faulty).commit(StoreFixture.update(seq: 3))
        }
        let loaded = BundleStore(directory: directory).load()
        #expect(loaded.current?.identity.seq == 2)
        #expect(loaded.lastKnownGood?.identity.seq == 1)
    }

    @Test func aFailureWhileRemovingGarbageIsLoggedAndTheChangeStands() throws {
        let directory = try prepared(prior: 2)
        let counting = FaultyFileSystem(failAt: nil)
        try BundleStore(directory: try prepared(prior: 2), fileSystem: counting).commit(StoreFixture.update(seq: 3))
        // Garbage collection starts with the first `list`; from there on, everything fails.
        let firstList = try #require(counting.journal.firstIndex { $0.hasPrefix("list ") })
        let log = CapturedLog()
        let faulty = FaultyFileSystem(failAt: firstList, mode: .crash)
        try BundleStore(directory: directory, fileSystem: faulty, logger: log.logger).commit(
            StoreFixture.update(seq: 3))
        #expect(BundleStore(directory: directory).load().current == StoreFixture.update(seq: 3))
        #expect(log.messages.contains { $0.hasSuffix("injected fault (errno 5); left for the next change to remove") })
    }
}
