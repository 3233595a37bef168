extension URI {
    /// Resolves a reference against this URI as the base, per RFC 3986 §5.2 (strict).
    ///
    /// ```swift
    /// try URI("http://a/b/c/d;p?q").resolving(URI("../g"))   // http://a/b/g
    /// ```
    /// - Parameter reference: A URI reference, relative or absolute.
    /// - Returns: The target URI, with dot-segments removed from its path.
    public func resolving(_ reference: URI) -> URI {
        let base = RawComponents(self)
        let ref = RawComponents(reference)
        var target = RawComponents()
        if ref.scheme != nil {
            target.scheme = ref.scheme
            target.authority = ref.authority
            target.path = Self.removingDotSegments(ref.path)
            target.query = ref.query
        } else {
            if ref.authority != nil {
                target.authority = ref.authority
                target.path = Self.removingDotSegments(ref.path)
                target.query = ref.query
            } else {
                if ref.path.isEmpty {
                    target.path = base.path
                    target.query = ref.query ?? base.query
                } else {
                    if ref.path.utf8.first == Bytes.slash {
                        target.path = Self.removingDotSegments(ref.path)
                    } else {
                        target.path = Self.removingDotSegments(Self.merge(base: base, path: ref.path))
                    }
                    target.query = ref.query
                }
                target.authority = base.authority
            }
            target.scheme = base.scheme
        }
        target.fragment = ref.fragment
        let text = target.recomposed()
        do {
            return try URI(text)
        } catch {
            preconditionFailure("reference resolution produced an unparsable URI \(text): \(error)")
        }
    }

    /// Resolves the reference `text` against this URI as the base.
    /// - Parameter text: A URI reference.
    /// - Returns: The target URI.
    /// - Throws: `URIError` when `text` does not parse.
    public func resolving(_ text: String) throws(URIError) -> URI {
        resolving(try URI(text))
    }

    /// RFC 3986 §5.2.3.
    private static func merge(base: RawComponents, path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.utf8.lastIndex(of: Bytes.slash) else { return path }
        return String(decoding: base.path.utf8[...slash], as: UTF8.self) + path
    }

    /// Removes `.` and `..` segments from a path (RFC 3986 §5.2.4).
    /// - Parameter path: A percent-encoded path.
    /// - Returns: The path without dot-segments.
    package static func removingDotSegments(_ path: String) -> String {
        // Byte-wise, not by Character: "/" or "." followed by a combining mark is one
        // Character, but still a delimiter to RFC 3986.
        var input = Substring(path).utf8
        var output: [Substring.UTF8View] = []  // each element is "/seg" or (first, rootless) "seg"
        while !input.isEmpty {
            if input.starts(with: "../".utf8) {
                input = input.dropFirst(3)
            } else if input.starts(with: "./".utf8) {
                input = input.dropFirst(2)
            } else if input.starts(with: "/./".utf8) {
                input = input.dropFirst(2)
            } else if input.elementsEqual("/.".utf8) {
                input = Substring("/").utf8
            } else if input.starts(with: "/../".utf8) {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input.elementsEqual("/..".utf8) {
                input = Substring("/").utf8
                if !output.isEmpty { output.removeLast() }
            } else if input.elementsEqual(".".utf8) || input.elementsEqual("..".utf8) {
                input = input.dropFirst(input.count)
            } else {
                // Move the first segment, with its leading "/" if any, to the output.
                let searchStart = input.first == Bytes.slash ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: Bytes.slash) ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return String(decoding: output.joined(), as: UTF8.self)
    }
}

/// The five components of RFC 3986 §5.2, as written.
private struct RawComponents {
    var scheme: String?
    var authority: String?
    var path = ""
    var query: String?
    var fragment: String?

    init() {}

    init(_ uri: URI) {
        let layout = uri.layout
        scheme = layout.schemeEnd >= 0 ? uri.slice(0, layout.schemeEnd) : nil
        authority = uri.percentEncodedAuthority
        path = uri.percentEncodedPath
        query = uri.percentEncodedQuery
        fragment = uri.percentEncodedFragment
    }

    /// RFC 3986 §5.3, guarding the two shapes that would re-parse differently.
    func recomposed() -> String {
        var text = ""
        if let scheme { text += scheme + ":" }
        var path = self.path
        if let authority {
            text += "//" + authority
        } else if path.utf8.starts(with: "//".utf8) {
            // Without an authority, "//x" would read as one: keep it a path.
            path = "/." + path
        } else if scheme == nil, let colon = path.utf8.firstIndex(of: Bytes.colon),
            !path.utf8[..<colon].contains(Bytes.slash)
        {
            // A first segment with ":" would read as a scheme.
            path = "./" + path
        }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }
}
