/// A version such as `5.10.1`, `6.0.1.4` or `6.0.0-beta.2`, ordered as Semantic Versioning
/// 2.0.0 §11 orders them: numerically part by part, a pre-release before its release,
/// build metadata ignored.
///
/// It reads what apps ship, by this grammar (``init(parsing:)``; docs/rules.md has it
/// with a table of examples):
///
/// ```
/// version     = *space ["v" / "V"] core ["-" pre-release] [build] *space
/// core        = number *("." number)           ; 6, 6.2, 6.0.1.4 — missing parts are 0
/// number      = 1*18DIGIT                      ; leading zeros allowed: 5.02 is 5.2
/// pre-release = identifier *("." identifier)   ; beta.2 — digits alone are a number
/// build       = "+" identifier *("." identifier)
///             / *space "(" identifier *("." identifier) ")"   ; 6.0.1 (1234)
/// identifier  = 1*(ALPHA / DIGIT / "-")
/// space       = " " / TAB
/// ```
///
/// at most 256 bytes long. Parts are compared as numbers, and a missing part is zero, so
/// `5.2`, `5.2.0` and `5.2.0.0` are equal (`==` agrees with the order, and so does the
/// hash). Pre-release identifiers follow §11: numbers numerically, others in ASCII order,
/// a number before a word, and of two lists equal as far as the shorter goes, the shorter
/// first. ``description`` is the canonical form: at least three parts, the others up to the
/// last that is not zero, the build after `+` (`v6.2 (77)` prints `6.2.0+77`).
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
    /// The numeric parts after the patch (`[4]` for `6.0.1.4`), up to the last that is not
    /// zero when parsed; empty for most versions.
    public var trailingParts: [Int]
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
        self.trailingParts = []
        self.preRelease = preRelease
        self.build = build
    }

    /// Creates a version of any number of numeric parts.
    /// - Parameters:
    ///   - parts: The numeric parts, major first; missing ones are zero.
    ///   - preRelease: Pre-release identifiers.
    ///   - build: Build metadata.
    public init(parts: [Int], preRelease: [String] = [], build: [String] = []) {
        self.init(
            parts.first ?? 0, parts.count > 1 ? parts[1] : 0, parts.count > 2 ? parts[2] : 0, preRelease: preRelease,
            build: build)
        if parts.count > 3 {
            let last = parts.lastIndex { $0 != 0 } ?? 0
            if last >= 3 { trailingParts = Array(parts[3...last]) }
        }
    }

    /// Reads a version by the grammar above: the one parser behind every version
    /// Junction reads.
    /// - Parameter text: The version as written.
    /// - Throws: ``VersionSyntaxError``: the text, where it stops being a version and
    ///   what was expected there.
    public init(parsing text: String) throws(VersionSyntaxError) {
        self = try VersionParser.parse(text)
    }

    /// Reads a version by the grammar above, or `nil` (``init(parsing:)`` says why).
    /// - Parameter description: The text.
    public init?(_ description: String) {
        guard let version = try? Self(parsing: description) else { return nil }
        self = version
    }

    /// Every numeric part, major first: three, and the trailing parts.
    public var parts: [Int] { [major, minor, patch] + trailingParts }

    /// `5.10.1-beta.2+build.7`, `6.0.1.4`.
    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        let end = trailingParts.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0
        for part in trailingParts[..<end] { text += ".\(part)" }
        if !preRelease.isEmpty { text += "-" + preRelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    /// Whether two versions have the same precedence (build metadata is ignored; a
    /// missing part is zero, so `5.2` == `5.2.0.0`).
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        precedence(lhs, rhs) == 0
    }

    /// Hashes what ``==(_:_:)`` compares: the parts without trailing zeros, and the
    /// pre-release with numbers without leading zeros.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        let end = trailingParts.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0
        hasher.combine(end)
        for part in trailingParts[..<end] { hasher.combine(part) }
        hasher.combine(preRelease.count)
        for identifier in preRelease {
            hasher.combine(Self.isNumeric(identifier) ? Self.withoutLeadingZeros(identifier) : Substring(identifier))
        }
    }

    /// Semantic Versioning 2.0.0 precedence: the parts, then a pre-release sorts before
    /// its release.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        precedence(lhs, rhs) < 0
    }

    /// -1, 0 or 1 as `lhs` comes before, with or after `rhs` (§11).
    private static func precedence(_ lhs: SemanticVersion, _ rhs: SemanticVersion) -> Int {
        if lhs.major != rhs.major { return lhs.major < rhs.major ? -1 : 1 }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor ? -1 : 1 }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch ? -1 : 1 }
        if !lhs.trailingParts.isEmpty || !rhs.trailingParts.isEmpty {
            for index in 0..<max(lhs.trailingParts.count, rhs.trailingParts.count) {
                let a = index < lhs.trailingParts.count ? lhs.trailingParts[index] : 0
                let b = index < rhs.trailingParts.count ? rhs.trailingParts[index] : 0
                if a != b { return a < b ? -1 : 1 }
            }
        }
        // A pre-release comes before its release.
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        for (a, b) in zip(lhs.preRelease, rhs.preRelease) {
            let order = identifierOrder(a, b)
            if order != 0 { return order }
        }
        return lhs.preRelease.count == rhs.preRelease.count ? 0 : (lhs.preRelease.count < rhs.preRelease.count ? -1 : 1)
    }

    /// §11.4: numbers numerically (by their digits, so no size limits them), a number
    /// before a word, words in ASCII order.
    private static func identifierOrder(_ a: String, _ b: String) -> Int {
        switch (isNumeric(a), isNumeric(b)) {
        case (true, true):
            let (x, y) = (withoutLeadingZeros(a).utf8, withoutLeadingZeros(b).utf8)
            if x.count != y.count { return x.count < y.count ? -1 : 1 }
            return x.elementsEqual(y) ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
        case (true, false): return -1
        case (false, true): return 1
        case (false, false): return a == b ? 0 : (a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1)
        }
    }

    private static func isNumeric(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(Bytes.isDigit)
    }

    private static func withoutLeadingZeros(_ digits: String) -> Substring {
        let start =
            digits.utf8.firstIndex { $0 != UInt8(ascii: "0") } ?? digits.utf8.index(before: digits.utf8.endIndex)
        return digits[start...]
    }
}
