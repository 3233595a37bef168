import JunctionArtifact

/// `keygen --epoch N`: the seq epoch a key signs pointers in, 0 to 2⁵³ − 1
/// (``ChannelPointer/maximumSeq``), in decimal digits only.
struct EpochArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The epoch.
    let value: UInt64

    init(parsing text: String) throws(OptionValueError) {
        // At most 16 digits: the text is bounded before it is converted.
        guard (1...16).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = UInt64(text), value <= ChannelPointer.maximumSeq
        else { throw OptionValueError("not a whole number from 0 to \(ChannelPointer.maximumSeq)") }
        self.value = value
    }

    /// The number.
    var description: String { String(value) }
}
