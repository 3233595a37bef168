/// An answer the collector sends, and closes the connection after: the status, the headers
/// that go with it, and a line of text saying why (none for 204).
struct CollectorResponse: Error, Equatable {
    /// The status code.
    let status: Int
    /// What the text says: what was wrong and what to do.
    let message: String
    /// Headers beyond the framing ones (`Allow`, `WWW-Authenticate`, `Retry-After`).
    var extraFields: [(String, String)] = []

    /// The reason phrases of the statuses the collector sends.
    static let reasons: [Int: String] = [
        100: "Continue", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
        405: "Method Not Allowed", 408: "Request Timeout", 411: "Length Required", 413: "Content Too Large",
        415: "Unsupported Media Type", 431: "Request Header Fields Too Large", 503: "Service Unavailable",
    ]

    /// The batch is durable.
    static let accepted = CollectorResponse(status: 204, message: "")

    /// 400 saying `message`.
    static func badRequest(_ message: String) -> CollectorResponse { CollectorResponse(status: 400, message: message) }

    /// The bytes sent: status line, headers, `Connection: close`, and the message.
    var bytes: [UInt8] {
        let body = message.isEmpty ? "" : message + "\n"
        var head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status")\r\n"
        if status != 204 {
            head += "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        for (name, value) in extraFields { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    static func == (left: CollectorResponse, right: CollectorResponse) -> Bool {
        left.status == right.status && left.message == right.message
            && left.extraFields.map { "\($0.0): \($0.1)" } == right.extraFields.map { "\($0.0): \($0.1)" }
    }
}
