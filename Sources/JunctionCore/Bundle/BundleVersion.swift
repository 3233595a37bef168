/// A bundle's version: a monotonic integer (`12`) or a semantic version (`1.4.0`).
/// Hot reload refuses a bundle that is not newer than the active one, so versions of
/// the two kinds do not compare: a bundle line keeps one kind.
public enum BundleVersion: Sendable, Hashable, CustomStringConvertible {
    /// `version: 12`
    case integer(Int)
    /// `version: 1.4.0`
    case semantic(SemanticVersion)

    /// Reads `12` as an integer and anything else as a semantic version.
    /// - Parameter text: The version as written.
    public init?(_ text: String) {
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let number = Int(text) else { return nil }
            self = .integer(number)
        } else if let version = SemanticVersion(text) {
            self = .semantic(version)
        } else {
            return nil
        }
    }

    /// Whether this version is newer than `other`, or `nil` when they are of different kinds.
    /// - Parameter other: Another bundle's version.
    /// - Returns: The answer, or `nil` when the kinds differ.
    public func isNewer(than other: BundleVersion) -> Bool? {
        switch (self, other) {
        case let (.integer(a), .integer(b)): return a > b
        case let (.semantic(a), .semantic(b)): return b < a
        default: return nil
        }
    }

    /// `12` or `1.4.0`.
    public var description: String {
        switch self {
        case .integer(let number): return String(number)
        case .semantic(let version): return version.description
        }
    }
}
