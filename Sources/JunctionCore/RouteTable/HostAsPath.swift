/// When a URL's host is read as the first path segment rather than as an origin.
///
/// Custom-scheme deep links put the page in the host (`myapp://user/42`), while
/// universal links carry a real origin (`https://example.com/user/42`).
public enum HostAsPath: String, Sendable, Hashable, CaseIterable {
    /// A host without a dot that is not `localhost` is the first path segment
    /// (`myapp://user/42` ≡ `/user/42`); a dotted host, `localhost` or an IP address
    /// is an origin that the pattern's host must match.
    case auto
    /// Every non-empty host is the first path segment.
    case always
    /// A host is always an origin.
    case never

    /// Whether `host`, a registered name as written in a pattern, is read as a path segment.
    func treatsAsPath(_ host: String) -> Bool {
        var host = host
        // An ASCII host is lower-cased byte by byte, without Unicode case mapping.
        let ascii: Bool? = host.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            guard Bytes.containsUppercaseASCII(bytes) else { return treatsAsPath(bytes) }
            return bytes.map(Bytes.lowercased).withUnsafeBufferPointer(treatsAsPath)
        }
        return ascii ?? Array(host.lowercased().utf8).withUnsafeBufferPointer(treatsAsPath)
    }

    /// Whether `host`, a lower-cased registered name, is read as a path segment.
    @inline(__always)
    func treatsAsPath(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !host.isEmpty else { return false }
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return !host.contains(Bytes.dot) && !(host.count == 9 && host.elementsEqual("localhost".utf8))
        }
    }
}
