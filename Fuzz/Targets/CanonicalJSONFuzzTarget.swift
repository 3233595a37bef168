import JunctionCore

extension FuzzTarget {
    /// Canonical JSON — route tables, tests, pointers, artifact headers: what decodes within
    /// the limits encodes, and the encoding is a fixed point (it decodes to the same value
    /// and encodes to the same bytes); refusals are typed errors.
    static let canonicalJSON = FuzzTarget(
        name: "canonical-json",
        summary: "canonical JSON: decode → encode → decode is the same value, and the encoding re-encodes byte for byte"
    ) { bytes throws(FuzzFailure) in
        let value: RuleValue
        do throws(CanonicalJSONError) {
            value = try CanonicalJSON.decode(bytes)
        } catch {
            try require(!error.message.isEmpty, "a refusal says why", "empty message")
            return
        }
        let encoded: [UInt8]
        do throws(CanonicalJSONError) {
            encoded = try CanonicalJSON.encode(value)
        } catch {
            throw FuzzFailure("what decodes encodes", "\(error) for \(value)")
        }
        let again: RuleValue
        do throws(CanonicalJSONError) {
            again = try CanonicalJSON.decode(encoded)
        } catch {
            throw FuzzFailure("an encoding decodes", "\(error) for \(String(fuzzBytes: encoded).debugDescription)")
        }
        try require(again == value, "an encoding decodes to the value", "\(again) ≠ \(value)")
        let reencoded = try? CanonicalJSON.encode(again)
        try require(
            reencoded == encoded, "the encoding is a fixed point",
            String(fuzzBytes: reencoded ?? []).debugDescription + " ≠ " + String(fuzzBytes: encoded).debugDescription)
    }
}
