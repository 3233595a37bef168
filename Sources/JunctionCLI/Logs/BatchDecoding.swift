import JunctionShipping

/// A body turned into what is appended to a kind's file: checked line by line as it is
/// inflated, and kept as gzip members.
///
/// A gzip body is appended as it came, once every member inflated whole and every line is a
/// JSON object (the same zlib and window the corpus reader uses, so what passes here reads
/// there); a plain body is compressed into one member. A batch whose last line has no line
/// end gets a member holding one, so the next batch's first line starts a line of its own.
struct BatchDecoding {
    let limits: CollectorLimits

    /// The members to append for `body`, and its JSON objects; no bytes for a batch of
    /// blank lines.
    /// - Parameters:
    ///   - body: The body as received.
    ///   - gzip: Whether it is gzip (`Content-Encoding: gzip`).
    /// - Throws: The answer that refuses it: 400 for a line that is not a JSON object or
    ///   gzip that is not whole, 413 for a line or a batch past its cap — found while
    ///   inflating, which stops there.
    func decode(_ body: [UInt8], gzip: Bool) throws(CollectorResponse) -> ([UInt8], Int) {
        var lines = BatchLines(maximumLineBytes: limits.maximumLineBytes, maximumBytes: limits.maximumInflatedBytes)
        do {
            if gzip {
                var handed = false
                let outcome = try GzipMembers().inflate(
                    from: { () throws(BatchLines.Refusal) -> [UInt8] in
                        defer { handed = true }
                        return handed ? [] : body
                    }, into: { chunk throws(BatchLines.Refusal) in try lines.take(chunk) })
                switch outcome {
                case .complete: break
                case .cutShort:
                    throw CollectorResponse.badRequest("the gzip body is cut short; send whole gzip members")
                case .damaged(let valid, let reason):
                    throw CollectorResponse.badRequest("the gzip body is damaged after byte \(valid): \(reason)")
                }
            } else {
                try lines.take(body[...])
            }
            try lines.finish()
        } catch let refusal as BatchLines.Refusal {
            throw Self.response(refusing: refusal)
        } catch let response as CollectorResponse {
            throw response
        } catch {
            throw CollectorResponse.badRequest("\(error)")
        }
        guard lines.objects > 0 else { return ([], 0) }
        let newline: [UInt8] = lines.endsWithLineEnd ? [] : [0x0A]
        let members =
            gzip ? body + (newline.isEmpty ? [] : GzipCompression.lineEnd) : GzipCompression.member(body + newline)
        return (members, lines.objects)
    }

    /// The answer to a batch ``BatchLines`` refused.
    private static func response(refusing refusal: BatchLines.Refusal) -> CollectorResponse {
        switch refusal {
        case .notAnObject(let line, let reason):
            return .badRequest("line \(line): not a JSON object: \(reason); send one JSON object a line")
        case .lineTooLong(let line, let maximum):
            return CollectorResponse(
                status: 413,
                message: "line \(line) is longer than \(maximum) bytes (--max-line-bytes), "
                    + "more than junction diff reads; a line is one decision")
        case .tooLarge(let maximum):
            return CollectorResponse(
                status: 413,
                message: "the body inflates past \(maximum) bytes (--max-inflated-bytes); send smaller batches")
        }
    }
}
