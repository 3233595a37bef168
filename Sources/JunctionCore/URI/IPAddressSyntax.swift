/// Recognisers for the IP address forms of RFC 3986 §3.2.2 (and zone identifiers of
/// RFC 6874), over UTF-8 code units.
enum IPAddressSyntax {
    /// Whether `bytes` is `dec-octet "." dec-octet "." dec-octet "." dec-octet`.
    /// Leading zeros make an octet a registered-name character run, as the RFC says.
    static func isIPv4(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var octets = 0
        var i = 0
        let n = bytes.count
        while true {
            guard i < n, Bytes.isDigit(bytes[i]) else { return false }
            var value = 0
            let start = i
            while i < n, Bytes.isDigit(bytes[i]) {
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                i += 1
                if i - start > 3 { return false }
            }
            if value > 255 || (i - start > 1 && bytes[start] == UInt8(ascii: "0")) { return false }
            octets += 1
            if octets == 4 { return i == n }
            guard i < n, bytes[i] == Bytes.dot else { return false }
            i += 1
        }
    }

    /// Whether `bytes` (without brackets) is an IPv6 address per RFC 3986's
    /// `IPv6address`, optionally followed by `%25` and a zone identifier (RFC 6874).
    static func isIPv6(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = bytes.count
        if let zone = zoneStart(bytes) {
            // "%25" ZoneID, ZoneID = 1*( unreserved / pct-encoded )
            guard zone + 3 < bytes.count, bytes[zone + 1] == UInt8(ascii: "2"), bytes[zone + 2] == UInt8(ascii: "5")
            else { return false }
            var i = zone + 3
            while i < bytes.count {
                let byte = bytes[i]
                if byte == Bytes.percent {
                    guard i + 2 < bytes.count, Bytes.hexValue(bytes[i + 1]) != nil,
                        Bytes.hexValue(bytes[i + 2]) != nil
                    else { return false }
                    i += 3
                } else if Bytes.isAlpha(byte) || Bytes.isDigit(byte) || "-._~".utf8.contains(byte) {
                    i += 1
                } else {
                    return false
                }
            }
            end = zone
        }
        return isIPv6Address(UnsafeBufferPointer(rebasing: bytes[0..<end]))
    }

    private static func zoneStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let i = bytes.firstIndex(of: Bytes.percent) else { return nil }
        return i
    }

    private static func isIPv6Address(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard n >= 2 else { return false }
        var pieces = 0
        var sawDoubleColon = false
        var i = 0
        if bytes[0] == Bytes.colon {
            guard bytes[1] == Bytes.colon else { return false }
            sawDoubleColon = true
            i = 2
            if i == n { return true }
        }
        while i < n {
            // One piece: h16, or (last) an IPv4 address worth two pieces.
            let start = i
            while i < n, Bytes.hexValue(bytes[i]) != nil { i += 1 }
            let length = i - start
            if i < n, bytes[i] == Bytes.dot {
                guard isIPv4(UnsafeBufferPointer(rebasing: bytes[start..<n])) else { return false }
                pieces += 2
                i = n
                break
            }
            guard (1...4).contains(length) else { return false }
            pieces += 1
            if i == n { break }
            guard bytes[i] == Bytes.colon, i + 1 < n else { return false }
            i += 1
            if bytes[i] == Bytes.colon {
                guard !sawDoubleColon else { return false }
                sawDoubleColon = true
                i += 1
                if i == n { break }
            }
        }
        return sawDoubleColon ? pieces <= 7 : pieces == 8
    }

    /// Whether `bytes` (without brackets) is `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
    static func isIPvFuture(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4, bytes[0] | 0x20 == UInt8(ascii: "v") else { return false }
        var i = 1
        while i < bytes.count, Bytes.hexValue(bytes[i]) != nil { i += 1 }
        guard i > 1, i < bytes.count, bytes[i] == Bytes.dot, i + 1 < bytes.count else { return false }
        for byte in bytes[(i + 1)...] {
            guard CharacterSets.table[Int(byte)] & CharacterSets.userinfo != 0 else { return false }
        }
        return true
    }
}
