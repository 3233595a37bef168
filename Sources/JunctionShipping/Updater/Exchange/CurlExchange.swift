#if canImport(CCurl)
    import CCurl
    import Foundation

    /// One request of ``CurlTransport``: a libcurl transfer on a thread of its own, and the
    /// one answer it gives — whichever comes first of the transfer ending, the body passing
    /// its limit, a refused header, the deadline and cancellation. Once answered, every
    /// callback of the transfer stops it, so it reads no more.
    ///
    /// `@unchecked Sendable`: what the answer needs is guarded by `lock`; what the transfer
    /// reads (status, headers, body) is touched only by its own thread, in its callbacks and
    /// after `curl_easy_perform` returns.
    final class CurlExchange: @unchecked Sendable {
        typealias Answer = Result<TransportResponse, UpdateTransportError>

        /// The most redirects followed.
        static let maximumRedirects = 5
        /// The most bytes of one header's value kept; the readers bound what they accept.
        static let maximumHeaderValue = 256

        let request: TransportRequest

        private let lock = NSLock()
        private var continuation: CheckedContinuation<Answer, Never>?
        private var pending: Answer?
        private var answered = false

        // The transfer thread's own.
        private var status = 0
        private var etag: String?
        private var retryAfter: String?
        private var encoding: String?
        private var location = false
        private var body: [UInt8] = []
        private var stop: Stop?

        /// Why a callback stopped the transfer.
        private enum Stop {
            case bodyFull
            case finalStatus
            case encoded(String)
        }

        init(request: TransportRequest) {
            self.request = request
        }

        /// Waits for the answer: resumes `continuation` once, now if it is already known,
        /// and starts the transfer otherwise.
        func start(_ continuation: CheckedContinuation<Answer, Never>) {
            let early: Answer? = lock.withLock {
                if let pending { return pending }
                self.continuation = continuation
                return nil
            }
            if let early {
                continuation.resume(returning: early)
                return
            }
            let thread = Thread { self.transfer() }
            thread.name = "junction.update.http"
            thread.start()
        }

        /// The deadline passed.
        func expire() {
            answer(.failure(UpdateTransportError(.timedOut, "\(describe) was not over by its deadline")))
        }

        /// The calling task was cancelled.
        func cancel() {
            answer(.failure(UpdateTransportError(.cancelled, "\(describe): cancelled")))
        }

        private var describe: String { "\(request.method) \(request.url.absoluteString.prefix(200))" }

        private var isAnswered: Bool { lock.withLock { answered } }

        /// Gives the answer once.
        private func answer(_ answer: Answer) {
            let waiting: CheckedContinuation<Answer, Never>?? = lock.withLock {
                guard !answered else { return .none }
                answered = true
                guard let continuation else {
                    pending = answer
                    return .some(nil)
                }
                self.continuation = nil
                return .some(continuation)
            }
            guard case .some(let continuation) = waiting else { return }
            continuation?.resume(returning: answer)
        }

        // MARK: - The transfer, on its own thread

        private func transfer() {
            guard let curl = curl_easy_init() else {
                answer(.failure(UpdateTransportError(.cannotConnect, "\(describe): libcurl could not make a handle")))
                return
            }
            defer { curl_easy_cleanup(curl) }
            var headers: UnsafeMutablePointer<curl_slist>?
            defer { curl_slist_free_all(headers) }
            headers = curl_slist_append(headers, "Cache-Control: no-cache")
            // No Accept-Encoding of libcurl's own: it would then inflate what it reads.
            headers = curl_slist_append(headers, "Accept-Encoding: identity")
            if let tag = request.ifNoneMatch, tag.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
                headers = curl_slist_append(headers, "If-None-Match: \(tag)")
            }
            if let upload = request.upload {
                for header in upload.headers { headers = curl_slist_append(headers, "\(header.name): \(header.value)") }
                // No `Expect: 100-continue` round trip before the body: a batch is small.
                headers = curl_slist_append(headers, "Expect:")
            }
            let remaining = request.deadline - ContinuousClock.now
            let milliseconds = max(1, min(Int(remaining.components.seconds) * 1_000 + 1_000, 86_400_000))
            let me = Unmanaged.passUnretained(self).toOpaque()
            _ = jc_setopt_string(curl, CURLOPT_URL, request.url.absoluteString)
            _ = jc_setopt_long(curl, CURLOPT_NOSIGNAL, 1)
            // libcurl 7.85 and later: an older one would follow a redirect to any scheme.
            guard jc_setopt_string(curl, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK,
                jc_setopt_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK
            else {
                answer(
                    .failure(
                        UpdateTransportError(
                            .cannotConnect,
                            "\(describe): this libcurl cannot limit redirects to http and https; it needs 7.85 or later"
                        )))
                return
            }
            // A POST follows no redirect: its answer, whatever it is, ends the exchange.
            _ = jc_setopt_long(curl, CURLOPT_FOLLOWLOCATION, request.upload == nil ? 1 : 0)
            _ = jc_setopt_long(curl, CURLOPT_MAXREDIRS, Self.maximumRedirects)
            _ = jc_setopt_long(curl, CURLOPT_TIMEOUT_MS, milliseconds)
            _ = jc_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
            _ = jc_setopt_headers(curl, headers)
            _ = jc_setopt_data_function(curl, CURLOPT_HEADERFUNCTION, Self.onHeader)
            _ = jc_setopt_pointer(curl, CURLOPT_HEADERDATA, me)
            _ = jc_setopt_data_function(curl, CURLOPT_WRITEFUNCTION, Self.onBody)
            _ = jc_setopt_pointer(curl, CURLOPT_WRITEDATA, me)
            _ = jc_setopt_progress_function(curl, Self.onProgress)
            _ = jc_setopt_pointer(curl, CURLOPT_XFERINFODATA, me)
            _ = jc_setopt_long(curl, CURLOPT_NOPROGRESS, 0)
            guard let upload = request.upload else {
                _ = jc_setopt_long(curl, CURLOPT_HTTPGET, 1)
                finish(curl_easy_perform(curl))
                return
            }
            // libcurl reads the body from this buffer while `curl_easy_perform` runs, and
            // only then; the request owns it for the exchange's life.
            upload.body.withUnsafeBytes { body in
                _ = jc_setopt_long(curl, CURLOPT_POST, 1)
                _ = jc_setopt_off(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                _ = jc_setopt_pointer(curl, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress))
                finish(curl_easy_perform(curl))
            }
        }

        private func finish(_ code: CURLcode) {
            switch stop {
            case .bodyFull?:
                answer(.success(response(body: body)))
                return
            case .finalStatus?:
                answer(.success(response(body: [])))
                return
            case .encoded(let encoding)?:
                answer(
                    .failure(
                        UpdateTransportError(
                            .badResponse,
                            "\(describe): the body is sent with Content-Encoding \"\(encoding)\"; "
                                + "the updater asks for identity and reads no encoded body")))
                return
            case nil:
                break
            }
            let failure: UpdateTransportError.Code
            switch code {
            case CURLE_OK:
                answer(.success(response(body: status == 200 ? body : [])))
                return
            case CURLE_TOO_MANY_REDIRECTS:
                // Not followed: the redirect's own status is the answer.
                answer(.success(response(body: [])))
                return
            case CURLE_OPERATION_TIMEDOUT: failure = .timedOut
            case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR: failure = .cancelled
            case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: failure = .unsupportedURL
            case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_PARTIAL_FILE: failure = .badResponse
            default: failure = .cannotConnect
            }
            let reason = String(cString: curl_easy_strerror(code))
            answer(.failure(UpdateTransportError(failure, "\(describe): \(reason)")))
        }

        private func response(body: [UInt8]) -> TransportResponse {
            TransportResponse(
                status: status, body: body, etag: ResponseHeaders.etag(etag),
                retryAfter: ResponseHeaders.retryAfter(retryAfter, now: Date()))
        }

        /// One header line (status lines and the blank line that ends a response's headers
        /// included). Returns whether the transfer goes on.
        private func received(header line: UnsafeRawBufferPointer) -> Bool {
            if isAnswered { return false }
            var bytes = line[...]
            while let last = bytes.last, last == 0x0D || last == 0x0A { bytes = bytes.dropLast() }
            if bytes.isEmpty { return headersEnded() }
            if bytes.starts(with: "HTTP/".utf8) {
                // A new response (after a redirect, or a 1xx): its own headers follow.
                let fields = bytes.split(separator: 0x20, maxSplits: 2)
                status = fields.count >= 2 ? Int(String(decoding: fields[1].prefix(3), as: UTF8.self)) ?? 0 : 0
                (etag, retryAfter, encoding, location) = (nil, nil, nil, false)
                return true
            }
            guard let colon = bytes.firstIndex(of: 0x3A) else { return true }
            let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: bytes[(colon + 1)...].prefix(Self.maximumHeaderValue), as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            switch name {
            case "etag": etag = value
            case "retry-after": retryAfter = value
            case "content-encoding": encoding = value
            case "location": location = true
            default: break
            }
            return true
        }

        /// A response's headers are complete: go on to a redirect libcurl follows, or to a
        /// `200`'s body in identity encoding; stop at anything else, before its body. A POST's
        /// first final status is its whole answer.
        private func headersEnded() -> Bool {
            switch status {
            case 100..<200:
                return true
            case _ where request.upload != nil:
                stop = .finalStatus
                return false
            case 301, 302, 303, 307, 308:
                // libcurl follows it; without a Location it is the answer.
                if location { return true }
                stop = .finalStatus
                return false
            case 200:
                if let encoding, encoding.lowercased() != "identity" {
                    stop = .encoded(String(encoding.prefix(40)))
                    return false
                }
                return true
            default:
                stop = .finalStatus
                return false
            }
        }

        /// A piece of the body: kept up to one byte past the limit, where the transfer stops.
        private func received(body piece: UnsafeRawBufferPointer) -> Bool {
            if isAnswered || status != 200 { return false }
            let room = request.maximumBytes + 1 - body.count
            body.append(contentsOf: piece.prefix(max(0, room)))
            if body.count > request.maximumBytes {
                stop = .bodyFull
                return false
            }
            return true
        }

        // MARK: - libcurl's callbacks

        private static func exchange(_ pointer: UnsafeMutableRawPointer?) -> CurlExchange {
            Unmanaged<CurlExchange>.fromOpaque(pointer.unsafelyUnwrapped).takeUnretainedValue()
        }

        /// Returning fewer bytes than given stops the transfer (`CURLE_WRITE_ERROR`).
        private static let onHeader: curl_write_callback = { data, size, count, me in
            let length = size * count
            return exchange(me).received(header: UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }

        private static let onBody: curl_write_callback = { data, size, count, me in
            let length = size * count
            return exchange(me).received(body: UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }

        /// Called while the transfer waits as well as while it moves (at least once a
        /// second): non-zero stops it (`CURLE_ABORTED_BY_CALLBACK`).
        private static let onProgress: curl_xferinfo_callback = { me, _, _, _, _ in
            exchange(me).isAnswered ? 1 : 0
        }
    }
#endif
