extension Harness {
    /// Measures contenders whose one operation takes milliseconds — a load, an activation —
    /// one operation per sample, so the median is the median operation; reports them in
    /// milliseconds and prints each with its range on standard error.
    func measureInMilliseconds(_ contenders: [Contender]) -> [Measurement] {
        // A sample target far below one operation makes the harness run one per sample.
        let oneEach = Harness(samples: samples, sampleTarget: .microseconds(1), warmUp: warmUp)
        var measurements = (isProfile ? self : oneEach).measure(contenders)
        for index in measurements.indices {
            measurements[index].reportsMilliseconds = true
            let measurement = measurements[index]
            StandardError.print(
                String(
                    format: "  %@: %.3f ms (%.3f–%.3f, %d samples)", measurement.name,
                    measurement.nanosecondsPerOperation / 1e6, measurement.fastest / 1e6, measurement.slowest / 1e6,
                    measurement.samples))
        }
        return measurements
    }
}
