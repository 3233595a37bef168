/// Where the parts of an artifact lie, found from its structure alone: the header is
/// decoded only to learn the key id and the members' lengths, which place the signature.
struct ArtifactLayout {
    var fields: HeaderFields
    /// The bytes the signature covers: everything before it.
    var signed: Range<Int>
    var signature: Range<Int>
    /// Each member's bytes, in table order.
    var members: [Range<Int>]

    /// The layout of `bytes`, every size checked against `limits` and against the bytes
    /// there are before anything of that size is read, with checked arithmetic.
    /// - Parameter canonicalFormCheckedBefore: Whether these very bytes passed a full
    ///   verification before (see ``Artifact/init(verifying:keyring:dates:limits:verifiedBefore:)``):
    ///   their header's one byte form was checked then, and is not written again to compare.
    init(_ bytes: [UInt8], limits: ArtifactLimits, canonicalFormCheckedBefore: Bool = false) throws(ArtifactError) {
        if bytes.count > limits.totalSize {
            throw ArtifactError(
                .oversize, "the artifact has \(bytes.count) bytes; at most \(limits.totalSize) are allowed")
        }
        let magic = ArtifactFormat.magic
        guard bytes.prefix(magic.count).elementsEqual(magic.prefix(min(bytes.count, magic.count))) else {
            throw ArtifactError(.badMagic, "the file does not start with JBNDL and a zero byte: it is not a .jbundle")
        }
        guard bytes.count >= ArtifactFormat.prefixLength else {
            throw ArtifactError(
                .truncated,
                "the file ends at byte \(bytes.count), inside the \(ArtifactFormat.prefixLength)-byte prefix")
        }
        let version = UInt16(bytes[6]) << 8 | UInt16(bytes[7])
        guard version == ArtifactFormat.version else {
            throw ArtifactError(
                .unsupportedFormat,
                "the artifact is format \(version); this reader knows format \(ArtifactFormat.version)")
        }
        let headerLength = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        if headerLength > limits.headerSize {
            throw ArtifactError(
                .oversize, "the header has \(headerLength) bytes; at most \(limits.headerSize) are allowed")
        }
        let headerEnd = ArtifactFormat.prefixLength + headerLength
        guard headerEnd <= bytes.count else {
            throw ArtifactError(
                .truncated, "the file ends at byte \(bytes.count), inside the header, which ends at byte \(headerEnd)")
        }
        fields = try HeaderFields.decode(
            bytes[ArtifactFormat.prefixLength..<headerEnd], limits: limits,
            canonicalFormCheckedBefore: canonicalFormCheckedBefore)
        var end = headerEnd
        members = []
        members.reserveCapacity(fields.members.count)
        for row in fields.members {
            // Lengths are untrusted until the signature holds: add them with overflow checked
            // and against the bytes there are, so no length can reach past the file.
            let (sum, overflow) = end.addingReportingOverflow(row.length)
            guard !overflow, sum <= bytes.count else {
                throw ArtifactError(
                    .truncated,
                    "the file ends at byte \(bytes.count), inside member \(HeaderFields.quoted(row.path)), which claims \(row.length) bytes from byte \(end)"
                )
            }
            members.append(end..<sum)
            end = sum
        }
        if end == bytes.count {
            throw ArtifactError(.unsigned, "the file ends at byte \(end), where the signature should start")
        }
        guard bytes.count - end >= ArtifactFormat.signatureLength else {
            throw ArtifactError(
                .truncated,
                "the file ends at byte \(bytes.count), inside the signature, which starts at byte \(end) and has \(ArtifactFormat.signatureLength) bytes"
            )
        }
        guard bytes.count - end == ArtifactFormat.signatureLength else {
            throw ArtifactError(
                .memberLengthMismatch,
                "the members' lengths add up to \(end - headerEnd) bytes, but \(bytes.count - headerEnd - ArtifactFormat.signatureLength) lie between the header and the signature"
            )
        }
        signed = 0..<end
        signature = end..<bytes.count
    }
}
