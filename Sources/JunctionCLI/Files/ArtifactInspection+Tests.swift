import Junction
import JunctionArtifact

extension ArtifactInspection {
    /// How many tests the artifact's `tests.json` holds: 0 without one, `nil` when its
    /// hash differs or it is not a JSON array.
    /// - Parameter bytes: The artifact this inspection is of.
    func testCount(in bytes: [UInt8]) -> Int? {
        guard let index = header.members.firstIndex(where: { $0.kind == .tests }) else { return 0 }
        guard !hashMismatches.contains(header.members[index].path) else { return nil }
        // The inspection has checked the layout: a 12-byte prefix, whose last 4 bytes are the
        // header's length, then the members in the header's order.
        let headerLength = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let start = 12 + headerLength + header.members[..<index].reduce(0) { $0 + $1.length }
        let member = Array(bytes[start..<(start + header.members[index].length)])
        guard case .array(let tests) = try? CanonicalJSON.decode(member, file: "tests.json") else { return nil }
        return tests.count
    }
}
