package import Foundation

/// What the updater reads from a response's headers, bounded: a server controls them.
package enum ResponseHeaders {
    /// The longest wait a `Retry-After` is read as; a longer one is clamped to it.
    package static let maximumRetryAfter: Duration = .seconds(86_400)

    /// `Retry-After` (RFC 9110 §10.2.3): delta-seconds, or an HTTP date (IMF-fixdate)
    /// relative to `now`; a date in the past is no wait. Anything else — negative, signed,
    /// fractional, garbage, over 40 characters — is `nil`.
    package static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty, value.utf8.count <= 40 else {
            return nil
        }
        if value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            // More than 9 digits is past any clamp: no need to parse it.
            guard value.utf8.count <= 9, let seconds = Int64(value) else { return maximumRetryAfter }
            return min(.seconds(seconds), maximumRetryAfter)
        }
        guard let date = httpDate(value) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds > 0 else { return .zero }
        return seconds >= 86_400 ? maximumRetryAfter : .milliseconds(Int64(seconds * 1_000))
    }

    /// The `ETag` when a device may keep it: at most ``TransportResponse/maximumETagBytes``
    /// of visible ASCII.
    package static func etag(_ value: String?) -> String? {
        guard let value, (1...TransportResponse.maximumETagBytes).contains(value.utf8.count),
            value.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return value
    }

    /// An IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` — 29 bytes of printable ASCII, checked
    /// before the formatter sees them: Foundation's `DateFormatter` on Linux traps on text
    /// whose UTF-16 length differs from what it expects (`07:00:` and a combining accent —
    /// the `response-headers` fuzz target's finding), so a server could crash the app.
    private static func httpDate(_ text: String) -> Date? {
        guard text.utf8.count == 29, text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
