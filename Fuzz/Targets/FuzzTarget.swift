/// One fuzz target: a decoder that reads untrusted bytes, and the properties it must keep
/// on every input — not only "no crash": a refusal says where, what is accepted survives a
/// round trip, a cost stays within its bound.
///
/// ``check`` runs the decoder once and throws ``FuzzFailure`` when a property does not hold;
/// under libFuzzer (`scripts/fuzz`) a failure is a crash, and its input is saved, minimized,
/// as a regression input that `JunctionFuzzTests` replays without the fuzzer.
package struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and the corpus folders use (`uri`, `canonical-json`).
    package let name: String
    /// What it reads and what it asserts, in a line.
    package let summary: String
    /// Runs the decoder on one input.
    package let check: @Sendable ([UInt8]) throws(FuzzFailure) -> Void

    /// A target.
    package init(
        name: String, summary: String, check: @escaping @Sendable ([UInt8]) throws(FuzzFailure) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.check = check
    }
}

/// A property that did not hold, with the input's part it concerns.
package struct FuzzFailure: Error, CustomStringConvertible {
    /// The property, as a sentence (`a refusal's offset lies inside the input`).
    package let property: String
    /// What was seen.
    package let detail: String

    /// A failure.
    package init(_ property: String, _ detail: String) {
        self.property = property
        self.detail = detail
    }

    /// The property, then what was seen.
    package var description: String { "\(property): \(detail)" }
}

/// Throws a ``FuzzFailure`` unless `condition` holds.
/// - Parameters:
///   - condition: The property, evaluated.
///   - property: The property, as a sentence.
///   - detail: What was seen, written only when it fails.
package func require(
    _ condition: Bool, _ property: @autoclosure () -> String, _ detail: @autoclosure () -> String = ""
) throws(FuzzFailure) {
    if !condition { throw FuzzFailure(property(), detail()) }
}
