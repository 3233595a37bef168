/// The rules a member's path follows (docs/artifacts.md): nothing an archive's path
/// traversal history needs, and each kind's own name.
enum MemberPathRules {
    /// Why `path` is refused as a path of `kind`, or `nil` when it is fine.
    static func problem(with path: String, kind: ArtifactMemberKind, limits: ArtifactLimits) -> String? {
        let bytes = Array(path.utf8)
        if bytes.isEmpty { return "is empty" }
        if bytes.count > limits.pathLength {
            return "has \(bytes.count) bytes; at most \(limits.pathLength) are allowed"
        }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "has a control character" }
        if bytes.contains(UInt8(ascii: "\\")) { return "has a backslash" }
        if bytes.first == UInt8(ascii: "/") { return "is absolute" }
        for segment in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if segment.isEmpty { return "has an empty segment" }
            if segment.elementsEqual([0x2E]) || segment.elementsEqual([0x2E, 0x2E]) {
                return "has a \(String(decoding: segment, as: UTF8.self)) segment"
            }
        }
        if let fixed = kind.fixedPath {
            return path == fixed ? nil : "is not \(fixed), the one path of a \(kind) member"
        }
        // `lua`: a name of letters, digits, `_` and `-` (and inner dots), `.lua`, at the top level.
        let name = bytes.dropLast(4)
        let isNameByte: (UInt8) -> Bool = {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
        guard bytes.count > 4, bytes.suffix(4).elementsEqual(Array(".lua".utf8)), name.allSatisfy(isNameByte),
            name.first != UInt8(ascii: ".")
        else { return "is not name.lua at the top level (letters, digits, _, - and .), the path of a lua member" }
        return nil
    }
}
