/// Times contenders against each other: calibrates each one's iteration count so a
/// sample takes about `sampleTarget`, warms each up, then takes `samples` rounds of one
/// sample per contender and reports each one's median time per operation.
///
/// Rounds interleave the contenders (every matcher at every size), so a slow spell of
/// the machine (shared cores, frequency changes) slows them all alike instead of
/// skewing their ratios.
struct Harness {
    /// Samples per contender; odd, so the median is one of them.
    var samples: Int
    /// How long one sample should take.
    var sampleTarget: Duration
    /// How long to run each contender, untimed, before sampling.
    var warmUp: Duration
    /// Whether this is ``profile(seconds:)``'s one long sample, which every group keeps.
    var isProfile = false

    /// 21 samples of ~30 ms after 100 ms of warm-up.
    static let standard = Harness(samples: 21, sampleTarget: .milliseconds(30), warmUp: .milliseconds(100))
    /// 5 samples of ~3 ms: only shows that everything runs.
    static let quick = Harness(samples: 5, sampleTarget: .milliseconds(3), warmUp: .milliseconds(5))

    /// One sample of `seconds`, no warm-up: for a profiler.
    static func profile(seconds: Int) -> Harness {
        Harness(samples: 1, sampleTarget: .seconds(seconds), warmUp: .zero, isProfile: true)
    }

    /// Measures contenders against each other.
    /// - Parameter contenders: What to time.
    /// - Returns: One measurement per contender, in the same order.
    func measure(_ contenders: [Contender]) -> [Measurement] {
        let clock = ContinuousClock()
        var checksums = [Int](repeating: 0, count: contenders.count)

        let iterations = contenders.indices.map { index in
            calibrate(contenders[index], clock: clock, checksum: &checksums[index])
        }
        for (index, contender) in contenders.enumerated() {
            let end = clock.now + warmUp
            repeat {
                checksums[index] &+= contender.body(iterations[index])
                contender.afterEachCall()
            } while clock.now < end
        }

        var perOperation = [[Double]](repeating: [], count: contenders.count)
        for _ in 0..<samples {
            for (index, contender) in contenders.enumerated() {
                let start = clock.now
                checksums[index] &+= contender.body(iterations[index])
                let elapsed = clock.now - start
                contender.afterEachCall()
                perOperation[index].append(
                    Self.nanoseconds(elapsed) / Double(iterations[index] * contender.operationsPerIteration))
            }
        }

        return contenders.indices.map { index in
            let sorted = perOperation[index].sorted()
            return Measurement(
                name: contenders[index].name, n: contenders[index].n, nanosecondsPerOperation: sorted[sorted.count / 2],
                fastest: sorted[0], slowest: sorted[sorted.count - 1], sampleNanoseconds: perOperation[index],
                operationsPerSample: iterations[index] * contenders[index].operationsPerIteration,
                checksum: checksums[index]
            )
        }
    }

    /// Doubles the iterations until one call is long enough to time reliably, then
    /// scales to `sampleTarget`.
    private func calibrate(_ contender: Contender, clock: ContinuousClock, checksum: inout Int) -> Int {
        var iterations = 1
        var elapsed = Duration.zero
        while true {
            let start = clock.now
            checksum &+= contender.body(iterations)
            elapsed = clock.now - start
            contender.afterEachCall()
            if elapsed >= sampleTarget / 10 || iterations >= 1 << 30 { break }
            iterations *= 2
        }
        let scale = Self.nanoseconds(sampleTarget) / max(Self.nanoseconds(elapsed), 1)
        return max(1, Int((Double(iterations) * scale).rounded()))
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) * 1e-9
    }
}
