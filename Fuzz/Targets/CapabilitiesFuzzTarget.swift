import Junction
import JunctionCore
import JunctionTooling

extension FuzzTarget {
    /// App capability files (`junction check --capabilities`): the input's first 16 KiB read
    /// by `AppCapabilities(json:file:)`.
    ///
    /// Asserted: a refusal names the file, says why, and a byte offset it gives lies inside
    /// the input; what is read writes (`json()`) a document that reads back to an equal value
    /// — build metadata of the host version included, which `==` ignores — and writes the
    /// same text again: `json()` is a fixed point.
    static let capabilities = FuzzTarget(
        name: "capabilities",
        summary: "capability files: what reads re-reads from its json() to the same value, and json() is a fixed point"
    ) { bytes throws(FuzzFailure) in
        let input = Array(bytes.prefix(16 << 10))
        let file = "app.json"
        let capabilities: AppCapabilities
        do throws(CanonicalJSONError) {
            capabilities = try AppCapabilities(json: input, file: file)
        } catch {
            try require(error.file == file, "a refusal names the file", error.description)
            try require(!error.message.isEmpty, "a refusal says why", error.description)
            if error.place.hasPrefix("byte "), let offset = Int(error.place.dropFirst("byte ".count)) {
                try require(
                    (0...input.count).contains(offset), "a refusal's byte offset lies inside the input",
                    "\(error) for \(input.count) bytes")
            }
            return
        }

        let json = capabilities.json()
        let again: AppCapabilities
        do throws(CanonicalJSONError) {
            again = try AppCapabilities(json: Array(json.utf8), file: file)
        } catch {
            throw FuzzFailure("what json() writes reads back", "\(error) for \(json.debugDescription)")
        }
        try require(
            again == capabilities, "json() reads back to the same capabilities",
            "\(again) ≠ \(capabilities) via \(json.debugDescription)")
        try require(
            again.hostVersion.build == capabilities.hostVersion.build, "json() keeps the host version's build metadata",
            "\(again.hostVersion) ≠ \(capabilities.hostVersion)")
        let rewritten = again.json()
        try require(
            rewritten.utf8.elementsEqual(json.utf8), "json() is a fixed point",
            rewritten.debugDescription + " ≠ " + json.debugDescription)
    }
}
