import Foundation
import JunctionShipping

extension FuzzTarget {
    /// The response headers a server controls: the first field (NUL-separated, at most 256
    /// bytes) as `Retry-After`, the second (at most 512) as `ETag`, read by
    /// `ResponseHeaders.retryAfter(_:now:)` at a fixed `now` and `ResponseHeaders.etag(_:)`.
    ///
    /// Asserted: a wait is in 0 ... `ResponseHeaders.maximumRetryAfter`; delta-seconds (1 to
    /// 40 digits once trimmed) is always a wait, of exactly that many seconds clamped when at
    /// most 9 digits; over 40 bytes once trimmed is none; a later `now` never makes a wait
    /// longer. An ETag kept is the header itself, 1 ... `TransportResponse.maximumETagBytes`
    /// bytes of visible ASCII (0x21–0x7E), and it is kept exactly when
    /// `StoredChannelTag.isStorable` says the store keeps it (both document the same rule).
    static let responseHeaders = FuzzTarget(
        name: "response-headers",
        summary: "Retry-After and ETag: waits within 0...a day, ETags kept exactly when storable"
    ) { bytes throws(FuzzFailure) in
        var input = FuzzInput(bytes)
        let retryAfter = String(fuzzBytes: Array(input.field().prefix(256)))
        let etag = String(fuzzBytes: Array(input.field().prefix(512)))
        let now = Date(timeIntervalSince1970: 1_800_000_000)  // Fri, 15 Jan 2027 08:00:00 GMT
        let maximum = ResponseHeaders.maximumRetryAfter

        try require(ResponseHeaders.retryAfter(nil, now: now) == nil, "no header is no wait")
        let wait = ResponseHeaders.retryAfter(retryAfter, now: now)
        if let wait {
            try require(
                wait >= .zero && wait <= maximum, "a wait is within 0 ... maximumRetryAfter",
                "\(wait) for \(retryAfter.debugDescription)")
        }
        let trimmed = retryAfter.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.utf8.allSatisfy { (0x30...0x39).contains($0) }
        if digits, (1...40).contains(trimmed.utf8.count) {
            try require(wait != nil, "delta-seconds is a wait", retryAfter.debugDescription)
            if trimmed.utf8.count <= 9, let seconds = Int64(trimmed) {
                try require(
                    wait == min(Duration.seconds(seconds), maximum), "delta-seconds is that many seconds, clamped",
                    "\(wait.map { "\($0)" } ?? "nil") for \(retryAfter.debugDescription)")
            }
        }
        if trimmed.utf8.count > 40 {
            try require(wait == nil, "a header over 40 bytes is no wait", retryAfter.debugDescription)
        }
        if let wait, let later = ResponseHeaders.retryAfter(retryAfter, now: now.addingTimeInterval(3_600)) {
            try require(
                later <= wait, "a later now never makes a wait longer",
                "\(later) an hour later, \(wait) now, for \(retryAfter.debugDescription)")
        }

        try require(ResponseHeaders.etag(nil) == nil, "no ETag is none kept")
        let kept = ResponseHeaders.etag(etag)
        try require(
            (kept != nil) == StoredChannelTag.isStorable(etag), "an ETag is kept exactly when the store keeps it",
            etag.debugDescription)
        if let kept {
            try require(kept.utf8.elementsEqual(etag.utf8), "a kept ETag is the header as sent", kept.debugDescription)
            try require(
                (1...TransportResponse.maximumETagBytes).contains(kept.utf8.count)
                    && kept.utf8.allSatisfy { (0x21...0x7E).contains($0) },
                "a kept ETag is 1 ... maximumETagBytes of visible ASCII", kept.debugDescription)
        }
    }
}
