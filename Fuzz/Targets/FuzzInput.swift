/// Reads a fuzzer's bytes as structured input: fields cut at a separator byte, small
/// numbers, choices — so one input can carry a pattern and a subject, or a value's shape.
/// Reading past the end yields empty fields and zeros: every input is a valid one.
package struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// Input over `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { position >= bytes.count }

    /// The bytes up to the next `separator` (not included), or to the end.
    package mutating func field(separator: UInt8 = 0) -> [UInt8] {
        guard position < bytes.count else { return [] }
        let end = bytes[position...].firstIndex(of: separator) ?? bytes.count
        defer { position = min(bytes.count, end + 1) }
        return Array(bytes[position..<end])
    }

    /// The rest of the bytes.
    package mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }

    /// The next byte, or 0 at the end.
    package mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<bound`, from the next byte.
    package mutating func choice(_ bound: Int) -> Int {
        precondition(bound > 0, "a choice among none")
        return Int(byte()) % bound
    }
}

extension String {
    /// `bytes` as text, invalid UTF-8 repaired: what a decoder that takes a `String` can be
    /// handed.
    package init(fuzzBytes bytes: [UInt8]) {
        self.init(decoding: bytes, as: UTF8.self)
    }
}
