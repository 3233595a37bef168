package import JunctionCore

/// What must hold of every URI the parser accepts, and of every refusal: the properties
/// `URIRobustnessTests` checks on seeded random inputs and the `uri` fuzz target on the
/// fuzzer's.
package enum URIConsistency {
    /// What does not hold of `uri`, parsed from `input` in `mode`: its accessors answer, its
    /// components reassemble into the input, it re-parses the same, and it resolves against
    /// `base` into a URI that re-parses the same, without dot-segments.
    package static func problems(of uri: URI, parsedFrom input: String, mode: URI.ParsingMode, base: URI) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ what: String) {
            if !condition { problems.append("\(what): \(input.debugDescription) (\(mode))") }
        }

        // Every accessor answers (the first base suffices for these).
        _ = (uri.isAbsolute, uri.userinfo, uri.percentEncodedUserinfo, uri.percentEncodedHost, uri.path)
        _ = (uri.query.grouped, uri.queryItems(plusAsSpace: false).items, uri.description)
        let segments = uri.pathSegments
        let host = uri.host
        require(uri.string == input, "string differs from input")
        require((uri.hostKind != nil) == uri.hasAuthority, "hostKind without authority")
        require((host != nil) == uri.hasAuthority, "host without authority")
        require(uri.port.map { (0...65535).contains($0) } ?? true, "port out of range")
        require(uri.fragment == nil || uri.percentEncodedFragment != nil, "fragment without its text")

        // The percent-encoded components are the input, cut up.
        var text = ""
        if let scheme = uri.scheme { text += scheme + ":" }
        if let authority = uri.percentEncodedAuthority { text += "//" + authority }
        text += uri.percentEncodedPath
        if let query = uri.percentEncodedQuery { text += "?" + query }
        if let fragment = uri.percentEncodedFragment { text += "#" + fragment }
        let schemeLength = uri.scheme?.utf8.count ?? 0
        let folded = (uri.scheme ?? "") + String(decoding: input.utf8.dropFirst(schemeLength), as: UTF8.self)
        require(text.utf8.elementsEqual(folded.utf8), "components do not reassemble into the input")

        // Segments are the decoded path, split where the text has "/".
        // Compared as bytes: "/" then a combining mark is one Character.
        let rootless = segments.joined(separator: "/")
        let expectedPath = uri.percentEncodedPath.utf8.first == UInt8(ascii: "/") ? "/" + rootless : rootless
        require(uri.path.utf8.elementsEqual(expectedPath.utf8), "segments disagree with path")

        // Text that parsed once parses again, the same way.
        if let again = try? URI(uri.string, mode: mode) {
            require(again == uri && again.pathSegments == segments && again.host == host, "re-parse differs")
        } else {
            require(false, "does not re-parse")
        }

        // Resolution yields a URI that re-parses the same way, with its dot-segments gone.
        let target = base.resolving(uri)
        if let again = try? URI(target.string) {
            require(
                again.hasAuthority == target.hasAuthority && again.percentEncodedPath == target.percentEncodedPath,
                "resolved \(target.string.debugDescription) re-parses differently")
        } else {
            require(false, "resolved \(target.string.debugDescription) does not re-parse")
        }
        require(target.isAbsolute, "resolved target is not absolute")
        require(
            target.hasAuthority == (uri.hasAuthority || (uri.scheme == nil && base.hasAuthority)),
            "resolution against \(base) gained or lost an authority")
        require(target.percentEncodedFragment == uri.percentEncodedFragment, "resolution lost the fragment")
        if target.hasAuthority {
            let path = target.percentEncodedPath
            require(URI.removingDotSegments(path) == path, "resolved path \(path.debugDescription) keeps dot-segments")
        }
        return problems
    }

    /// What does not hold of a refusal: it names the input, its offset lies inside it, and
    /// its message has no raw control character.
    package static func problems(of error: URIError, input: String) -> [String] {
        var problems: [String] = []
        if error.input != input { problems.append("error names another input: \(input.debugDescription)") }
        if !(0..<input.utf8.count).contains(error.offset) {
            problems.append("error offset \(error.offset) outside the input: \(input.debugDescription)")
        }
        if error.description.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            problems.append("raw control character in message: \(error.description.debugDescription)")
        }
        return problems
    }
}
