extension URI {
    /// The scheme in lower case (schemes compare case-insensitively), or `nil` for a
    /// relative reference.
    public var scheme: String? {
        guard layout.schemeEnd >= 0 else { return nil }
        return slice(0, layout.schemeEnd).lowercased()
    }

    /// Whether the URI has a scheme (RFC 3986 §4.3 absolute URI, fragment allowed).
    public var isAbsolute: Bool { layout.schemeEnd >= 0 }

    /// Whether the URI has an authority (`//…`), even an empty one.
    public var hasAuthority: Bool { layout.hasAuthority }

    /// The authority as written (`user@host:8080`), or `nil`.
    public var percentEncodedAuthority: String? {
        guard layout.hasAuthority else { return nil }
        return slice(layout.authorityStart, layout.pathStart)
    }

    /// The userinfo as written, or `nil`.
    public var percentEncodedUserinfo: String? {
        guard layout.userinfoEnd >= 0 else { return nil }
        return slice(layout.authorityStart, layout.userinfoEnd)
    }

    /// The decoded userinfo, or `nil`.
    public var userinfo: String? {
        guard layout.userinfoEnd >= 0 else { return nil }
        return decodedSlice(layout.authorityStart, layout.userinfoEnd)
    }

    /// The host as written (IP literals keep their brackets), or `nil` without an authority.
    public var percentEncodedHost: String? {
        guard layout.hasAuthority else { return nil }
        return slice(layout.hostStart, layout.hostEnd)
    }

    /// The host, decoded and in lower case (hosts compare case-insensitively); IP
    /// literals without their brackets. `nil` without an authority; `""` for an empty host.
    public var host: String? {
        guard layout.hasAuthority else { return nil }
        switch layout.hostKind {
        case .ipv6, .ipvFuture:
            return decodedSlice(layout.hostStart + 1, layout.hostEnd - 1).lowercased()
        case .registeredName, .ipv4:
            return decodedSlice(layout.hostStart, layout.hostEnd).lowercased()
        }
    }

    /// What kind of host the URI names, or `nil` without an authority.
    public var hostKind: HostKind? { layout.hasAuthority ? layout.hostKind : nil }

    /// The port, or `nil` when absent or empty.
    public var port: Int? { layout.port >= 0 ? Int(layout.port) : nil }

    /// The path as written.
    public var percentEncodedPath: String { slice(layout.pathStart, layout.pathEnd) }

    /// The path, decoded. Prefer `pathSegments`: joining decoded segments loses the
    /// difference between `/` and `%2F`.
    public var path: String { decodedSlice(layout.pathStart, layout.pathEnd) }

    /// The path split on `/`, each segment decoded once. `%2F` stays inside its segment
    /// and `+` stays a plus. One leading `/` is not a segment: `""` → `[]`,
    /// `"/"` → `[""]`, `"/a/b/"` → `["a", "b", ""]`, `"a/b"` → `["a", "b"]`.
    public var pathSegments: [String] {
        withBytes { bytes in
            var segments: [String] = []
            forEachPathSegment(bytes) { start, end in
                segments.append(
                    PercentDecoding.decodedString(UnsafeBufferPointer(rebasing: bytes[start..<end]), plusAsSpace: false)
                )
            }
            return segments
        }
    }

    /// Calls `body` with the bounds of each raw path segment, in order.
    @inline(__always)
    func forEachPathSegment(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, Int) -> Void) {
        var start = Int(layout.pathStart)
        let end = Int(layout.pathEnd)
        guard start < end else { return }
        if bytes[start] == Bytes.slash { start += 1 }
        var i = start
        while i < end {
            if bytes[i] == Bytes.slash {
                body(start, i)
                start = i + 1
            }
            i += 1
        }
        body(start, end)
    }

    /// The query as written (without `?`), or `nil` when there is no `?`.
    public var percentEncodedQuery: String? {
        guard layout.queryStart >= 0 else { return nil }
        return slice(layout.queryStart, layout.fragmentStart >= 0 ? layout.fragmentStart - 1 : Int32(string.utf8.count))
    }

    /// The query's items with `+` read as a space. Same as `queryItems(plusAsSpace: true)`.
    public var query: QueryItems { queryItems(plusAsSpace: true) }

    /// The query split on `&`, each item on its first `=`, names and values decoded once.
    /// - Parameter plusAsSpace: Whether `+` means a space (HTML form encoding). `%2B` is
    ///   always a plus.
    /// - Returns: Every item in order; empty when there is no query.
    public func queryItems(plusAsSpace: Bool) -> QueryItems {
        guard layout.queryStart >= 0 else { return QueryItems() }
        let end = layout.fragmentStart >= 0 ? Int(layout.fragmentStart) - 1 : string.utf8.count
        return withBytes { bytes in
            QueryItems(
                parsing: UnsafeBufferPointer(rebasing: bytes[Int(layout.queryStart)..<end]), plusAsSpace: plusAsSpace)
        }
    }

    /// The fragment as written (without `#`), or `nil` when there is no `#`.
    public var percentEncodedFragment: String? {
        guard layout.fragmentStart >= 0 else { return nil }
        return slice(layout.fragmentStart, Int32(string.utf8.count))
    }

    /// The decoded fragment, or `nil` when there is no `#`.
    public var fragment: String? {
        guard layout.fragmentStart >= 0 else { return nil }
        return decodedSlice(layout.fragmentStart, Int32(string.utf8.count))
    }
}
