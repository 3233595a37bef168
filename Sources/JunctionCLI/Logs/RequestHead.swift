/// A request's line and headers, read from the bytes before the blank line that ends them.
///
/// Read strictly (RFC 9112): CRLF line ends, `METHOD SP TARGET SP HTTP/1.x`, `name: value`
/// fields without folding; two `Content-Length` fields that differ are refused, as a
/// request a proxy and this server could frame differently.
struct RequestHead: Equatable {
    /// `POST`.
    let method: String
    /// `/v1/logs/decisions`, with any query.
    let target: String
    /// Every field, names in lower case; a repeated field's values joined with `, `.
    let fields: [String: String]

    /// The value of the field `name` (lower case), `nil` when absent.
    subscript(name: String) -> String? { fields[name] }

    /// The head in `bytes`, which end before the blank line.
    /// - Parameter bytes: The request line and fields, CRLF between them.
    /// - Throws: A ``CollectorResponse`` (400) saying what is malformed.
    init(_ bytes: ArraySlice<UInt8>) throws(CollectorResponse) {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst() else { throw .badRequest("the request line is missing") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/"),
            parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0"
        else {
            throw .badRequest("the request line is not METHOD /path HTTP/1.1")
        }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else {
                throw .badRequest("a header line is not NAME: VALUE")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            if name == "content-length", let earlier = fields[name], earlier != value {
                throw .badRequest("two Content-Length headers that differ")
            }
            fields[name] = fields[name].map { name == "content-length" ? $0 : "\($0), \(value)" } ?? value
        }
        method = String(parts[0])
        target = String(parts[1])
        self.fields = fields
    }
}

extension Substring {
    /// The text without the spaces and tabs around it.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
