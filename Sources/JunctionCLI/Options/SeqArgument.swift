import JunctionArtifact

/// `bundle publish --seq N`: a pointer's sequence number, 1 to 2⁵³ − 1
/// (``ChannelPointer/maximumSeq``), in decimal digits only.
struct SeqArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The sequence number.
    let value: UInt64

    init(parsing text: String) throws(OptionValueError) {
        // At most 20 digits: the text is bounded before it is converted.
        guard (1...20).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = UInt64(text), (1...ChannelPointer.maximumSeq).contains(value)
        else {
            throw OptionValueError(
                "not a whole number from 1 to \(ChannelPointer.maximumSeq) (2^53 - 1, the largest a pointer carries)")
        }
        self.value = value
    }

    /// The number.
    var description: String { String(value) }
}
