/// Byte-level helpers shared by the URI parser, the percent-decoder and the matcher.
/// Everything here works on UTF-8 code units; nothing allocates.
package enum Bytes {
    static let percent = UInt8(ascii: "%")
    static let slash = UInt8(ascii: "/")
    static let question = UInt8(ascii: "?")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let at = UInt8(ascii: "@")
    static let ampersand = UInt8(ascii: "&")
    static let equals = UInt8(ascii: "=")
    static let plus = UInt8(ascii: "+")
    static let space = UInt8(ascii: " ")
    static let dot = UInt8(ascii: ".")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")

    /// The value of a hexadecimal digit, or `nil`.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    /// Whether `byte` is an ASCII letter.
    @inline(__always)
    package static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// ASCII control characters (C0 and DEL): never valid in a URI, and a classic
    /// injection vector (CR/LF in logs and headers), so rejected in every mode.
    @inline(__always)
    static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Whether `bytes` holds an ASCII letter in upper case.
    static func containsUppercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
            return true
        }
        return false
    }

    /// Whether two byte ranges hold the same bytes.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmpBytes(pa, pb, a.count)
    }

    @inline(__always)
    private static func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var i = 0
        while i &+ 8 <= count {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self)
            if x != y { return false }
            i &+= 8
        }
        while i < count {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }

    /// A fast, well-mixed 64-bit hash of a byte range (FNV-1a over 8-byte words,
    /// finished with a 64-bit avalanche). Deterministic across runs and platforms.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        let prime: UInt64 = 0x0000_0100_0000_01B3
        let count = bytes.count
        guard let base = bytes.baseAddress else { return avalanche(h) }
        var i = 0
        while i &+ 8 <= count {
            h = (h ^ UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) &* prime
            h ^= h >> 29
            i &+= 8
        }
        while i < count {
            h = (h ^ UInt64(base[i])) &* prime
            i &+= 1
        }
        return avalanche(h ^ UInt64(count))
    }

    @inline(__always)
    static func avalanche(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }
}
