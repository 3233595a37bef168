/// Room for the most captures a pattern may have (Lua's `LUA_MAXCAPTURES`), inline, so
/// that a ``PatternMatcher`` stays a trivial value that allocates nothing.
struct PatternCaptures: BitwiseCopyable {
    /// How many captures one pattern may open.
    static let capacity = 32

    private typealias Storage = (
        PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture,
        PatternCapture,
        PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture,
        PatternCapture,
        PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture,
        PatternCapture,
        PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture, PatternCapture,
        PatternCapture
    )

    private var storage: Storage = (
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture(),
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture(),
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture(),
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture(),
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture(),
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture(),
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture(),
        PatternCapture(), PatternCapture(), PatternCapture(), PatternCapture()
    )

    /// The capture at `index`, which is below ``capacity``. The getter is `mutating` so that
    /// it reads the storage in place instead of copying it.
    subscript(index: Int) -> PatternCapture {
        mutating get {
            withUnsafeMutableBytes(of: &storage) { bytes in
                bytes.load(fromByteOffset: index * MemoryLayout<PatternCapture>.stride, as: PatternCapture.self)
            }
        }
        set {
            withUnsafeMutableBytes(of: &storage) { bytes in
                bytes.storeBytes(
                    of: newValue, toByteOffset: index * MemoryLayout<PatternCapture>.stride, as: PatternCapture.self)
            }
        }
    }
}
