import Foundation
import JunctionShipping

/// One connection's one request: its head read and checked, its body read, inflated and
/// checked a chunk at a time, the batch appended, and the answer sent. Every step is bounded
/// by a cap of ``CollectorLimits`` before its cost is paid.
struct UploadExchange: Sendable {
    /// What a request may send as `Content-Type` (its parameters aside); none is taken too.
    static let mediaTypes: Set<String> = [
        "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
        "application/json", "text/plain",
    ]

    /// What came of a request.
    struct Outcome {
        /// The status sent, `nil` when the client went before an answer.
        var status: Int?
        /// The JSON objects written.
        var lines = 0
    }

    let limits: CollectorLimits
    let token: BearerToken?
    let folder: LogFolder

    /// Serves one request on `connection` and answers it.
    /// - Returns: The status sent and the lines written.
    func serve(_ connection: ClientConnection) -> Outcome {
        var lines = 0
        var bodyUnread = true
        let response: CollectorResponse
        do {
            (response, lines) = try answer(connection, bodyUnread: &bodyUnread)
        } catch {
            return Outcome(status: nil)
        }
        let deadline = ContinuousClock.now + limits.lingerTimeout
        do { try connection.write(response.bytes, before: deadline) } catch { return Outcome(status: nil) }
        connection.finish(draining: bodyUnread ? limits.maximumBodyBytes : 0, before: deadline)
        return Outcome(status: response.status, lines: lines)
    }

    /// The answer to the request on `connection`, and the JSON objects written.
    /// - Throws: ``ClientConnection/ReadEnd/closed`` when the client went.
    private func answer(_ connection: ClientConnection, bodyUnread: inout Bool) throws(ClientConnection.ReadEnd)
        -> (CollectorResponse, Int)
    {
        let (head, start): (RequestHead, [UInt8])
        do { (head, start) = try readHead(connection) } catch {
            // Status 0: the client went before its headers ended; there is no one to answer.
            if error.status == 0 { throw .closed }
            return (error, 0)
        }
        let kind: DecisionLogKind
        let length: Int
        do { (kind, length) = try check(head) } catch { return (error, 0) }
        if head["expect"]?.lowercased() == "100-continue" {
            try connection.write(
                Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), before: ContinuousClock.now + limits.lingerTimeout)
        }
        var body = Array(start.prefix(length))
        body.reserveCapacity(length)
        let deadline = ContinuousClock.now + limits.bodyTimeout
        while body.count < length {
            do {
                body += try connection.read(maximumBytes: min(length - body.count, 1 << 16), before: deadline)
            } catch .timedOut {
                return (
                    CollectorResponse(
                        status: 408,
                        message: "the body did not arrive within \(limits.bodyTimeout) (--body-timeout): "
                            + "\(body.count) of \(length) bytes"), 0
                )
            }
        }
        bodyUnread = false
        let batch: [UInt8]
        let objects: Int
        do {
            (batch, objects) = try BatchDecoding(limits: limits).decode(
                body, gzip: head["content-encoding"]?.lowercased() == "gzip")
        } catch { return (error, 0) }
        if !batch.isEmpty {
            do { try folder.files[kind]?.append(batch) } catch {
                printError("logs serve: \(error)")
                return (
                    CollectorResponse(
                        status: 503, message: "the batch could not be written; send it again later",
                        extraFields: [("Retry-After", "30")]), 0
                )
            }
        }
        return (.accepted, objects)
    }

    /// Reads until the blank line that ends the head, within the header cap and timeout.
    /// - Returns: The head, and the body's bytes read with it.
    /// - Throws: The answer (408, 431, 400), or nothing to answer when the client went.
    private func readHead(_ connection: ClientConnection) throws(CollectorResponse) -> (RequestHead, [UInt8]) {
        let deadline = ContinuousClock.now + limits.headerTimeout
        var bytes: [UInt8] = []
        var searched = 0
        while true {
            do {
                bytes += try connection.read(maximumBytes: 1 << 14, before: deadline)
            } catch .timedOut {
                throw CollectorResponse(
                    status: 408, message: "the headers did not arrive within \(limits.headerTimeout) (--header-timeout)"
                )
            } catch {
                throw CollectorResponse(status: 0, message: "")
            }
            if let end = Self.blankLine(in: bytes, from: max(0, searched - 3)) {
                guard end <= limits.maximumHeaderBytes else { break }
                return (try RequestHead(bytes[..<end]), Array(bytes[(end + 4)...]))
            }
            searched = bytes.count
            if bytes.count > limits.maximumHeaderBytes { break }
        }
        throw CollectorResponse(
            status: 431, message: "the headers are longer than \(limits.maximumHeaderBytes) bytes (--max-header-bytes)")
    }

    /// Where `\r\n\r\n` starts in `bytes`, looking from `start`.
    private static func blankLine(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D && bytes[index + 3] == 0x0A
            {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Checks a head before its body is read: path, method, token, framing, size, encoding.
    /// - Returns: The kind posted and the body's length.
    /// - Throws: The answer that refuses it.
    private func check(_ head: RequestHead) throws(CollectorResponse) -> (DecisionLogKind, Int) {
        guard let kind = DecisionLogKind(target: head.target) else {
            let paths = DecisionLogKind.allCases.map(\.path).joined(separator: " or ")
            throw CollectorResponse(
                status: 404, message: "\(head.target.prefix(200)): no such path; post batches to \(paths)")
        }
        guard head.method == "POST" else {
            throw CollectorResponse(
                status: 405, message: "\(head.method.prefix(20)) \(kind.path): only POST is served",
                extraFields: [("Allow", "POST")])
        }
        if let token, !token.isPresented(by: head["authorization"]) {
            throw CollectorResponse(
                status: 401,
                message: head["authorization"] == nil
                    ? "an upload needs Authorization: Bearer TOKEN" : "the bearer token is not the collector's",
                extraFields: [("WWW-Authenticate", "Bearer")])
        }
        guard head["transfer-encoding"] == nil else {
            throw CollectorResponse(
                status: 411, message: "Transfer-Encoding is not read (chunked bodies are refused); send Content-Length")
        }
        guard let text = head["content-length"] else {
            throw CollectorResponse(status: 411, message: "an upload needs Content-Length")
        }
        guard text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(text)
        else {
            throw CollectorResponse.badRequest("Content-Length is not a number of bytes")
        }
        guard length <= limits.maximumBodyBytes else {
            throw CollectorResponse(
                status: 413,
                message: "the body is \(length) bytes, more than \(limits.maximumBodyBytes) (--max-body-bytes); "
                    + "send smaller batches")
        }
        let encoding = head["content-encoding"]?.lowercased() ?? "identity"
        guard encoding == "gzip" || encoding == "identity" else {
            throw CollectorResponse(
                status: 415, message: "Content-Encoding \(encoding.prefix(40)) is not read; send gzip or identity")
        }
        if let type = head["content-type"] {
            let media = type.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
            guard Self.mediaTypes.contains(media) else {
                throw CollectorResponse(
                    status: 415, message: "Content-Type \(media.prefix(60)) is not read; send application/x-ndjson")
            }
        }
        return (kind, length)
    }
}
