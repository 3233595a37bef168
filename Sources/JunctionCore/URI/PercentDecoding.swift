/// Percent-decoding (RFC 3986 §2.1) over UTF-8 code units, with the validation that
/// makes decoding total: once a component passed `firstProblem`, decoding it cannot fail.
enum PercentDecoding {
    /// What is wrong with a percent-encoded component.
    enum Problem: Equatable {
        /// `%` not followed by two hexadecimal digits.
        case invalidEscape
        /// The decoded bytes are not UTF-8.
        case invalidUTF8
    }

    /// The first problem in `bytes[range]` and the offset (into `bytes`) where it starts,
    /// or `nil` when the range decodes to valid UTF-8.
    static func firstProblem(
        in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> (offset: Int, problem: Problem)? {
        var validator = UTF8Validator()
        var sequenceStart = range.lowerBound
        var i = range.lowerBound
        while i < range.upperBound {
            let start = i
            var byte = bytes[i]
            if byte == Bytes.percent {
                guard i + 2 < range.upperBound,
                    let high = Bytes.hexValue(bytes[i + 1]),
                    let low = Bytes.hexValue(bytes[i + 2])
                else { return (start, .invalidEscape) }
                byte = high << 4 | low
                i += 3
            } else {
                i += 1
            }
            if validator.isAtBoundary { sequenceStart = start }
            guard validator.consume(byte) else { return (sequenceStart, .invalidUTF8) }
        }
        return validator.isAtBoundary ? nil : (sequenceStart, .invalidUTF8)
    }

    /// Decodes `source` into `destination` (which must hold `source.count` bytes) and
    /// returns the number of bytes written. The source must have passed `firstProblem`.
    @inline(__always)
    static func decode(
        _ source: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>, plusAsSpace: Bool
    ) -> Int {
        var written = 0
        var i = 0
        let count = source.count
        while i < count {
            let byte = source[i]
            if byte == Bytes.percent, i + 2 < count,
                let high = Bytes.hexValue(source[i + 1]), let low = Bytes.hexValue(source[i + 2])
            {
                destination[written] = high << 4 | low
                i += 3
            } else {
                destination[written] = plusAsSpace && byte == Bytes.plus ? Bytes.space : byte
                i += 1
            }
            written += 1
        }
        return written
    }

    /// Whether decoding `source` changes it.
    @inline(__always)
    static func needsDecoding(_ source: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> Bool {
        for byte in source where byte == Bytes.percent || (plusAsSpace && byte == Bytes.plus) {
            return true
        }
        return false
    }

    /// The decoded text of a validated component.
    static func decodedString(_ source: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String {
        guard needsDecoding(source, plusAsSpace: plusAsSpace) else {
            return String(decoding: source, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: source.count) { buffer in
            decode(source, into: buffer.baseAddress!, plusAsSpace: plusAsSpace)
        }
    }
}

/// An incremental UTF-8 validator (RFC 3629): rejects overlong forms, surrogates and
/// code points above U+10FFFF.
struct UTF8Validator {
    private var remaining = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Whether the bytes so far end on a character boundary.
    var isAtBoundary: Bool { remaining == 0 }

    /// Feeds one byte; `false` when the sequence is invalid.
    mutating func consume(_ byte: UInt8) -> Bool {
        if remaining == 0 {
            switch byte {
            case 0x00...0x7F: return true
            case 0xC2...0xDF: remaining = 1
            case 0xE0:
                remaining = 2
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
            case 0xED:
                remaining = 2
                upper = 0x9F
            case 0xF0:
                remaining = 3
                lower = 0x90
            case 0xF1...0xF3: remaining = 3
            case 0xF4:
                remaining = 3
                upper = 0x8F
            default: return false
            }
            return true
        }
        guard byte >= lower && byte <= upper else { return false }
        lower = 0x80
        upper = 0xBF
        remaining -= 1
        return true
    }
}
