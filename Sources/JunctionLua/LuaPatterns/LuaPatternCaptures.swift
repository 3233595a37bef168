/// Room for the most captures a pattern may have (Lua's `LUA_MAXCAPTURES`), inline, so
/// that a ``LuaPatternMatcher`` stays a trivial value that allocates nothing.
struct LuaPatternCaptures: BitwiseCopyable {
    /// How many captures one pattern may open.
    static let capacity = 32

    private typealias Storage = (
        LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture,
        LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture,
        LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture,
        LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture, LuaPatternCapture,
        LuaPatternCapture
    )

    private var storage: Storage = (
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(),
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(),
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(),
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(),
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(),
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(),
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(),
        LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture(), LuaPatternCapture()
    )

    /// The capture at `index`, which is below ``capacity``. The getter is `mutating` so that
    /// it reads the storage in place instead of copying it.
    subscript(index: Int) -> LuaPatternCapture {
        mutating get {
            withUnsafeMutableBytes(of: &storage) { bytes in
                bytes.load(fromByteOffset: index * MemoryLayout<LuaPatternCapture>.stride, as: LuaPatternCapture.self)
            }
        }
        set {
            withUnsafeMutableBytes(of: &storage) { bytes in
                bytes.storeBytes(
                    of: newValue, toByteOffset: index * MemoryLayout<LuaPatternCapture>.stride,
                    as: LuaPatternCapture.self)
            }
        }
    }
}
