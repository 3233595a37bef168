/// What the canonical JSON reader accepts at most: every cost of reading is linear in
/// the text, and the text is capped before anything is read.
public struct CanonicalJSONLimits: Sendable, Hashable {
    /// The limits used when none are given: 16 MiB of text, 64 levels, strings of 1 MiB,
    /// numbers of 64 characters.
    public static let `default` = CanonicalJSONLimits()

    /// How many bytes the whole text may have.
    public var maximumBytes: Int
    /// How many arrays and objects may nest; a top-level array or object is level 1.
    public var maximumDepth: Int
    /// How many bytes one string (a value or a key) may have once unescaped.
    public var maximumStringBytes: Int
    /// How many characters one number may have: the shortest form of any double needs 24.
    public var maximumNumberLength: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumBytes: The longest text.
    ///   - maximumDepth: The deepest nesting.
    ///   - maximumStringBytes: The longest string.
    ///   - maximumNumberLength: The longest number.
    public init(
        maximumBytes: Int = 16 << 20, maximumDepth: Int = 64, maximumStringBytes: Int = 1 << 20,
        maximumNumberLength: Int = 64
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumStringBytes = maximumStringBytes
        self.maximumNumberLength = maximumNumberLength
    }
}
