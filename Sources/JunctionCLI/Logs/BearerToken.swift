import Foundation

/// The token `--token-file` holds, which every upload must present as
/// `Authorization: Bearer TOKEN`.
struct BearerToken: Sendable {
    /// The longest token read: a token is a secret of a few dozen bytes, not a document.
    static let maximumBytes = 4_096

    private let bytes: [UInt8]

    /// The token in `text`, without the spaces and line ends around it.
    /// - Parameter text: What the token file holds.
    /// - Throws: `CollectorError` when it holds no token, or one with spaces inside or
    ///   longer than ``maximumBytes``.
    init(fileText text: String) throws(CollectorError) {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw CollectorError("the token file is empty; write one token in it") }
        guard token.utf8.count <= Self.maximumBytes else {
            throw CollectorError("the token file holds more than \(Self.maximumBytes) bytes; a token is one line")
        }
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw CollectorError("the token has spaces or characters other than visible ASCII; write one token")
        }
        bytes = Array(token.utf8)
    }

    /// Whether an `Authorization` header's value presents this token.
    ///
    /// The compare takes as long for a token that differs in its first byte as for one that
    /// differs in its last, so timing tells a guesser nothing of how much was right: every
    /// byte of the expected token is looked at, whatever was presented.
    /// - Parameter authorization: The header's value (`Bearer TOKEN`), `nil` when absent.
    /// - Returns: `true` when it is `Bearer ` and exactly this token.
    func isPresented(by authorization: String?) -> Bool {
        guard let authorization else { return false }
        let value = Array(authorization.utf8)
        let scheme = Array("bearer ".utf8)
        guard value.count > scheme.count,
            value[..<scheme.count].map({ $0 | 0x20 }) == scheme.map({ $0 | 0x20 })
        else { return false }
        let presented = value[scheme.count...]
        var difference: UInt8 = presented.count == bytes.count ? 0 : 1
        for index in 0..<bytes.count {
            let offered = index < presented.count ? presented[presented.startIndex + index] : 0
            difference |= offered ^ bytes[index]
        }
        return difference == 0
    }
}
