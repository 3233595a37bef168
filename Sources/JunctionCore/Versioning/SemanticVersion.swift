/// A version such as `5.10.1` or `6.0.0-beta.2`, ordered as Semantic Versioning 2.0.0 §11
/// orders them: numerically part by part, a pre-release before its release, build
/// metadata ignored.
///
/// Parsing is lenient about missing parts (`5` ≡ `5.0.0`, `5.2` ≡ `5.2.0`) because app
/// versions are often written that way; anything else that is not a version is an error.
///
/// ```swift
/// SemanticVersion("5.2.0")! < SemanticVersion("5.10.1")!   // true: 2 < 10, not "2" > "1"
/// ```
public struct SemanticVersion: Sendable, Hashable, Comparable, LosslessStringConvertible {
    /// The major version.
    public var major: Int
    /// The minor version.
    public var minor: Int
    /// The patch version.
    public var patch: Int
    /// Dot-separated pre-release identifiers (`["beta", "2"]`); empty for a release.
    public var preRelease: [String]
    /// Dot-separated build metadata; ignored by comparison and equality.
    public var build: [String]

    /// Creates a version.
    /// - Parameters:
    ///   - major: The major version.
    ///   - minor: The minor version.
    ///   - patch: The patch version.
    ///   - preRelease: Pre-release identifiers.
    ///   - build: Build metadata.
    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0, preRelease: [String] = [], build: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = preRelease
        self.build = build
    }

    /// Parses `MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]`.
    /// - Parameter description: The text.
    public init?(_ description: String) {
        var rest = Substring(description)
        var build: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            build = rest[rest.index(after: plus)...].split(separator: ".", omittingEmptySubsequences: false).map(
                String.init)
            guard build.allSatisfy(Self.isIdentifier) else { return nil }
            rest = rest[..<plus]
        }
        var preRelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            preRelease = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false).map(
                String.init)
            guard preRelease.allSatisfy(Self.isIdentifier),
                preRelease.allSatisfy({ !Self.isNumeric($0) || $0 == "0" || !$0.hasPrefix("0") })
            else { return nil }
            rest = rest[..<dash]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard Self.isNumeric(part), part == "0" || !part.hasPrefix("0"), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        while numbers.count < 3 { numbers.append(0) }
        self.init(numbers[0], numbers[1], numbers[2], preRelease: preRelease, build: build)
    }

    private static func isNumeric(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { Bytes.isAlpha($0) || Bytes.isDigit($0) || $0 == UInt8(ascii: "-") }
    }

    /// `5.10.1-beta.2+build.7`.
    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !preRelease.isEmpty { text += "-" + preRelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    /// Whether two versions have the same precedence fields (build metadata is ignored).
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) == (rhs.major, rhs.minor, rhs.patch) && lhs.preRelease == rhs.preRelease
    }

    /// Hashes the fields ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(preRelease)
    }

    /// Semantic Versioning 2.0.0 precedence: major, minor, patch, then a pre-release sorts
    /// before its release.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        // A pre-release comes before its release.
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, true), (true, false): return false
        case (false, true): return true
        case (false, false): break
        }
        for (a, b) in zip(lhs.preRelease, rhs.preRelease) where a != b {
            switch (Int(a).flatMap { isNumeric(a) ? $0 : nil }, Int(b).flatMap { isNumeric(b) ? $0 : nil }) {
            case let (x?, y?): return x < y
            case (.some, nil): return true  // numeric identifiers sort before alphanumeric ones
            case (nil, .some): return false
            case (nil, nil): return a < b  // ASCII order
            }
        }
        return lhs.preRelease.count < rhs.preRelease.count
    }
}
