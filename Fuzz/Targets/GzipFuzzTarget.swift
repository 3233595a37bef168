import JunctionShipping

extension FuzzTarget {
    /// Gzip members — decision-log uploads, as `junction logs serve` reads them. The first
    /// byte picks a mode; every inflation goes to a sink that stops at 1 MiB.
    ///
    /// Even: the next byte sets a chunk size, the rest is inflated by ``GzipMembers`` whole
    /// and a chunk at a time, with one inflater reused: both end the same way
    /// (`.complete`, `.cutShort` or `.damaged`, at the same byte) with the same output, no
    /// chunk is empty or over ``GzipMembers/chunkBytes``, the output never passes the cap,
    /// a `validBytes` lies inside the input, and the bytes up to it inflate `.complete` to a
    /// prefix of the output.
    ///
    /// Odd: two fields `a` and `b`, each made a member by ``GzipCompression/member(_:)``:
    /// one inflates to exactly its bytes, both concatenated to `a + b` (whole and chunked),
    /// `.complete`; cut anywhere short they end `.cutShort` at the end of the last whole
    /// member; followed by two or more bytes that do not start a gzip header, `.damaged`
    /// there.
    static let gzip = FuzzTarget(
        name: "gzip",
        summary: "gzip members: inflation is capped, chunking changes nothing, members round-trip and concatenate"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let inflater = GzipMembers()
        if input.byte() % 2 == 0 {
            let chunkSize = 1 + Int(input.byte())
            try GzipFuzzing.checkInflating(input.rest(), chunkSize: chunkSize, with: inflater)
        } else {
            try GzipFuzzing.checkRoundTrips(&input, with: inflater)
        }
    }
}

/// The capped sink and the checks of the `gzip` target.
private enum GzipFuzzing {
    /// The most output one inflation keeps.
    static let cap = 1 << 20

    /// What one inflation gave.
    struct Run {
        /// Where it stopped, or nil when the sink stopped it at the cap.
        var outcome: GzipMembers.Outcome?
        var output: [UInt8]
        /// The size of a chunk that was empty or larger than ``GzipMembers/chunkBytes``.
        var badChunk: Int?

        /// The outcome without zlib's reason, which only has to say something.
        var shape: String {
            switch outcome {
            case .none: return "capped at \(output.count) bytes"
            case .some(.complete): return "complete"
            case .some(.cutShort(let valid)): return "cut short after \(valid) bytes"
            case .some(.damaged(let valid, _)): return "damaged after \(valid) bytes"
            }
        }

        /// The bytes of whole members, for an outcome that stopped inside one.
        var validBytes: Int? {
            switch outcome {
            case .some(.cutShort(let valid)), .some(.damaged(let valid, _)): return valid
            default: return nil
            }
        }
    }

    /// The sink's signal that the cap is reached.
    struct CapReached: Error {}

    /// Inflates `chunks`, handed out one after another, keeping at most ``cap`` bytes.
    static func inflate(_ chunks: [[UInt8]], with inflater: GzipMembers) -> Run {
        var output: [UInt8] = []
        var next = 0
        var badChunk: Int?
        do throws(CapReached) {
            let outcome = try inflater.inflate(
                from: { () throws(CapReached) -> [UInt8] in
                    guard next < chunks.count else { return [] }
                    next += 1
                    return chunks[next - 1]
                },
                into: { (chunk: ArraySlice<UInt8>) throws(CapReached) -> Void in
                    if chunk.isEmpty || chunk.count > GzipMembers.chunkBytes { badChunk = chunk.count }
                    let room = cap - output.count
                    output.append(contentsOf: chunk.prefix(room))
                    if chunk.count > room { throw CapReached() }
                })
            return Run(outcome: outcome, output: output, badChunk: badChunk)
        } catch {
            return Run(outcome: nil, output: output, badChunk: badChunk)
        }
    }

    /// `bytes` in chunks of `size` (none when empty: an empty chunk means the end).
    static func chunks(_ bytes: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    static func checkRun(_ run: Run, of what: String) throws(FuzzFailure) {
        try require(run.badChunk == nil, "\(what): every chunk is 1 to 64 KiB", "a chunk of \(run.badChunk ?? 0) bytes")
        try require(run.output.count <= cap, "\(what): the output stays within the cap", "\(run.output.count) bytes")
        if case .some(.damaged(_, let reason)) = run.outcome {
            try require(!reason.isEmpty, "\(what): damage has a reason", "")
        }
    }

    // MARK: - Arbitrary bytes

    static func checkInflating(_ bytes: [UInt8], chunkSize: Int, with inflater: GzipMembers) throws(FuzzFailure) {
        let whole = inflate(bytes.isEmpty ? [] : [bytes], with: inflater)
        try checkRun(whole, of: "whole")
        let chunked = inflate(chunks(bytes, size: chunkSize), with: inflater)
        try checkRun(chunked, of: "in chunks of \(chunkSize)")
        try require(
            whole.shape == chunked.shape && whole.output == chunked.output,
            "inflating in chunks ends as inflating whole", "whole: \(whole.shape); chunked: \(chunked.shape)")
        guard let valid = whole.validBytes else { return }
        try require(
            valid >= 0 && valid < bytes.count, "a stop inside a member lies inside the input",
            "\(whole.shape) of \(bytes.count) bytes")
        let members = inflate(valid == 0 ? [] : [Array(bytes[..<valid])], with: inflater)
        try checkRun(members, of: "the whole members")
        try require(
            members.outcome == nil || members.outcome == .complete, "the bytes before a stop are whole members",
            "\(valid) bytes: \(members.shape)")
        try require(
            whole.output.starts(with: members.output), "whole members inflate to a prefix of the output",
            "\(members.output.count) bytes against \(whole.output.count)")
    }

    // MARK: - Members made here

    static func checkRoundTrips(_ input: inout FuzzInput, with inflater: GzipMembers) throws(FuzzFailure) {
        let chunkSize = 1 + Int(input.byte())
        let cut = Int(input.byte()) << 8 | Int(input.byte())
        let first = input.field()
        let second = input.field()
        let trailer = input.field()
        let memberA = GzipCompression.member(first)
        let memberB = GzipCompression.member(second)

        let one = inflate([memberA], with: inflater)
        try checkRun(one, of: "one member")
        try require(
            one.outcome == .complete && one.output == first, "a member inflates to its bytes, complete",
            "\(one.shape), \(one.output.count) of \(first.count) bytes")

        let both = memberA + memberB
        for chunked in [inflate([both], with: inflater), inflate(chunks(both, size: chunkSize), with: inflater)] {
            try checkRun(chunked, of: "two members")
            try require(
                chunked.outcome == .complete && chunked.output == first + second,
                "two members inflate to the concatenation, complete",
                "\(chunked.shape), \(chunked.output.count) of \(first.count + second.count) bytes")
        }

        // Cut short anywhere but at the boundary: the last whole member ends the valid bytes.
        let length = 1 + cut % (both.count - 1)
        if length != memberA.count {
            let shortened = inflate([Array(both[..<length])], with: inflater)
            try checkRun(shortened, of: "cut short")
            let whole = length < memberA.count ? 0 : memberA.count
            try require(
                shortened.outcome == .cutShort(validBytes: whole), "a cut member is cut short after the whole ones",
                "cut at \(length) of \(both.count) (first member \(memberA.count)): \(shortened.shape)")
            try require(
                (first + second).starts(with: shortened.output), "a cut member inflates to a prefix",
                "\(shortened.output.count) bytes")
        }

        // What follows a member and does not start a gzip header is damage after it.
        if trailer.count >= 2, !trailer.starts(with: [0x1F, 0x8B]) {
            let followed = inflate([memberA + trailer], with: inflater)
            try checkRun(followed, of: "followed by other bytes")
            try require(
                followed.validBytes == memberA.count && followed.output == first,
                "bytes after a member that are not gzip are damage after it", followed.shape)
            guard case .some(.damaged) = followed.outcome else {
                throw FuzzFailure("bytes after a member that are not gzip are damage", followed.shape)
            }
        }
    }
}
