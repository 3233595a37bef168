/// Reads the text of a route pattern: origin, optional groups, segments.
struct PatternParser {
    /// Pattern text after group expansion, with each byte's offset in the original.
    struct ExpandedPath: Sendable {
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        var offset: Int { offsets.first ?? 0 }
    }

    let text: String
    private let bytes: [UInt8]
    private(set) var hostOffset = 0
    /// The most expansions the groups may make; more is refused before they are made.
    let maximumExpansions: Int

    init(text: String, maximumExpansions: Int = RoutePattern.maximumExpansions) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.maximumExpansions = maximumExpansions
    }

    private func error(_ message: String, _ offset: Int) -> PatternSyntaxError {
        PatternSyntaxError(message: message, offset: offset)
    }

    /// Splits `scheme://host` from the path: returns the lower-cased scheme (nil for a
    /// global pattern), the host as written (nil when absent or empty) and where the path starts.
    mutating func splitOrigin() throws(PatternSyntaxError) -> (scheme: String?, host: String?, pathStart: Int) {
        var i = 0
        var scheme: String?
        if bytes.first != Bytes.slash {
            while i < bytes.count, CharacterSets.table[Int(bytes[i])] & CharacterSets.scheme != 0 { i += 1 }
            guard i > 0, Bytes.isAlpha(bytes[0]), bytes[i...].starts(with: "://".utf8)
            else {
                throw error("a pattern starts with \"/\" (any scheme) or \"scheme://\"", 0)
            }
            // Scheme characters are ASCII: lower-cased byte by byte, and only when needed.
            let name = bytes[0..<i]
            scheme =
                name.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
                ? String(decoding: name.map(Bytes.lowercased), as: UTF8.self) : String(decoding: name, as: UTF8.self)
            i += 1
        }
        guard bytes[i...].starts(with: "//".utf8) else { return (scheme, nil, i) }
        i += 2
        hostOffset = i
        let start = i
        while i < bytes.count, bytes[i] != Bytes.slash {
            if bytes[i] == UInt8(ascii: "(") {
                // `scheme://:name(regex)`: the host read as a path is a parameter with a regex.
                guard let name = parameterName(start..<i), i + 1 == bytes.count || bytes[i + 1] != Bytes.slash
                else { break }
                i = try regexEnd(from: i, parameter: name)
                continue
            }
            if bytes[i] == Bytes.at || (bytes[i] == Bytes.colon && i > start) || bytes[i] == Bytes.question
                || bytes[i] == Bytes.hash
            {
                throw error(
                    "a pattern names a scheme, a host and a path; remove the userinfo, port, query or fragment", i)
            }
            i += 1
        }
        let host = String(decoding: bytes[start..<i], as: UTF8.self)
        return (scheme, host.isEmpty ? nil : host, i)
    }

    /// Whether the path that starts at `start` opens with a group in the host's place,
    /// `scheme://(segment/)…`: JLRoutes' spelling of an optional first segment.
    func opensWithGroupForHost(_ start: Int) -> Bool {
        hostOffset > 0 && start == hostOffset && start + 1 < bytes.count && bytes[start] == UInt8(ascii: "(")
            && bytes[start + 1] != Bytes.slash
    }

    /// Expands the optional groups of the path that starts at `start`: `/a(/b)(/c)` gives
    /// `/a`, `/a/b`, `/a/c`, `/a/b/c` (each group left out first). A group after a segment
    /// starts with "/", `(/b)`; one after a "/" ends with it, `/(b/)` (JLRoutes' spelling):
    /// so neither leaving a group out nor putting it in makes `//`.
    /// - Parameter afterSlash: Whether the path starts after a "/" of its own, one that
    ///   every expansion then starts with: the second of `scheme://(segment/)…`.
    func expandGroups(from start: Int, afterSlash startsAfterSlash: Bool = false) throws(PatternSyntaxError)
        -> [ExpandedPath]
    {
        var i = start
        var afterSlash = startsAfterSlash
        // The host read as a path is the segment a group at the start follows: `scheme://:p(/…)`.
        let expansions = try expandSequence(
            &i, afterSlash: &afterSlash, depth: 0, inside: nil, segmentStart: hostOffset > 0 ? hostOffset : start)
        if i < bytes.count {
            throw error(
                "unbalanced \")\"; an optional group is written \"(/segment)\" after a segment, \"(segment/)\" after \"/\"",
                i)
        }
        guard startsAfterSlash else { return expansions }
        return expansions.map { ExpandedPath(bytes: [Bytes.slash] + $0.bytes, offsets: [start - 1] + $0.offsets) }
    }

    /// Expands from `i` to the `)` that closes the enclosing group, or to the end.
    /// - Parameters:
    ///   - afterSlash: Whether a segment starts at `i` in every expansion; on return, whether
    ///     one starts where the sequence ends.
    ///   - depth: How many groups enclose the sequence.
    ///   - parameter: The parameter that an enclosing group follows directly (`:p(/…)`),
    ///     whose text must not read as the regex that `(` starts after other parameters.
    ///   - segmentStart: Where the segment that `i` is in starts, when before `i`.
    private func expandSequence(
        _ i: inout Int, afterSlash: inout Bool, depth: Int, inside parameter: String?, segmentStart: Int? = nil
    ) throws(PatternSyntaxError) -> [ExpandedPath] {
        var results = [ExpandedPath()]
        // Bytes are copied to every result in runs, not one by one: most patterns are
        // one run.
        var runStart = i
        func flushRun(to end: Int) {
            guard runStart < end else { return }
            for k in results.indices {
                results[k].bytes.append(contentsOf: bytes[runStart..<end])
                results[k].offsets.append(contentsOf: runStart..<end)
            }
        }
        var segmentStart = segmentStart ?? i
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: ")") {
                flushRun(to: i)
                return results  // the caller checks the balance
            }
            if byte == Bytes.slash {
                if afterSlash { throw emptySegment(at: i) }
                afterSlash = true
                segmentStart = i + 1
                i += 1
                continue
            }
            guard byte == UInt8(ascii: "(") else {
                if let parameter, Self.isRegexSyntax(byte) {
                    throw error(
                        "\"\(Character(Unicode.Scalar(byte)))\" in the optional group after \":\(parameter)\"; \"(/\" after a parameter starts a group — write a regex that starts with \"/\" as \":\(parameter)(\\/…)\", or the character as \"%\(String(byte, radix: 16, uppercase: true))\"",
                        i)
                }
                afterSlash = false
                i += 1
                continue
            }
            let follows = afterSlash ? nil : parameterName(segmentStart..<i)
            if let follows, i + 1 == bytes.count || bytes[i + 1] != Bytes.slash {
                // `:name(regex)`, copied through; a regex never starts with "/", so `:name(/…)` is a group.
                i = try regexEnd(from: i, parameter: follows)
                continue
            }
            flushRun(to: i)
            let open = i
            let inner = try expandGroup(&i, afterSlash: afterSlash, depth: depth, follows: follows, inside: parameter)
            guard results.count * (inner.count + 1) <= maximumExpansions else {
                throw tooManyExpansions(at: open)
            }
            var combined = results
            combined.reserveCapacity(results.count * (inner.count + 1))
            for prefix in results {
                for tail in inner {
                    combined.append(
                        ExpandedPath(bytes: prefix.bytes + tail.bytes, offsets: prefix.offsets + tail.offsets))
                }
            }
            results = combined
            runStart = i
            segmentStart = i
            // A group leaves `afterSlash` as it found it; after one that starts with "/",
            // text would join the segment before the group or the group's last one.
            if !afterSlash, i < bytes.count, bytes[i] != Bytes.slash, bytes[i] != UInt8(ascii: "("),
                bytes[i] != UInt8(ascii: ")")
            {
                let end = bytes[i...].firstIndex { $0 == Bytes.slash || $0 == UInt8(ascii: "(") } ?? bytes.count
                throw error(
                    "\"\(text(i, end))\" right after the optional group \"\(text(open, i))\" would join a segment; after a group comes \"/\", another group or the end",
                    i)
            }
        }
        flushRun(to: i)
        return results
    }

    /// Expands the optional group whose `(` is at `i`, leaving `i` past its `)`.
    /// - Parameters:
    ///   - afterSlash: Whether the group follows a "/" (it then ends with one) or a segment
    ///     (it then starts with one).
    ///   - follows: The parameter the group follows directly, `:p(/…)`.
    private func expandGroup(_ i: inout Int, afterSlash: Bool, depth: Int, follows: String?, inside: String?)
        throws(PatternSyntaxError) -> [ExpandedPath]
    {
        let open = i
        let next = open + 1 < bytes.count ? bytes[open + 1] : nil
        if afterSlash, next == Bytes.slash {
            throw error(
                "\"(/\" right after \"/\" makes an empty segment (\"//\"); after \"/\" an optional group ends with \"/\": \"(segment/)\"",
                open)
        }
        if !afterSlash, next != Bytes.slash {
            throw error(
                "an optional group after a segment starts with \"/\": \"(/segment)\"; one after \"/\" ends with it: \"(segment/)\"",
                open)
        }
        // A group nested in d others means at least d + 2 expansions: refusing deeper ones
        // here keeps the recursion as shallow as the cap allows.
        guard depth + 2 <= maximumExpansions else { throw tooManyExpansions(at: open) }
        i += 1
        var endsAfterSlash = afterSlash
        let inner = try expandSequence(&i, afterSlash: &endsAfterSlash, depth: depth + 1, inside: follows ?? inside)
        guard i < bytes.count, bytes[i] == UInt8(ascii: ")") else {
            throw error("optional group is not closed; add \")\"", open)
        }
        i += 1
        let text = self.text(open + 1, i - 1)
        if text.isEmpty { throw error("empty optional group \"()\"; remove it, or write \"(segment/)\"", open) }
        guard endsAfterSlash != afterSlash else { return inner }
        if afterSlash { throw error("an optional group after \"/\" ends with \"/\": write \"(\(text)/)\"", open) }
        if text == "/" {
            let regex = follows.map { "; a regex that starts with \"/\" is written \":\($0)(\\/)\"" } ?? ""
            throw error("empty optional group \"(/)\"; remove it, or write \"(/segment)\"\(regex)", open)
        }
        throw error(
            text.hasSuffix("/")
                ? "an optional group after a segment ends with a segment: write \"(\(text.dropLast()))\""
                : "an optional group after a segment ends with a segment, not \"/\": \"(/segment)\"", open)
    }

    /// How many expansions ``expandGroups(from:afterSlash:)`` would make, worked out from
    /// where the groups are and how they nest, without making one: each group multiplies
    /// what the sequence it is in makes by what it makes inside plus one (left out). `nil`
    /// when the groups do not read (the parse says why); `Int.max` for more than an `Int`
    /// holds, or groups nested deeper than ``maximumExpansions`` allows (at least as many).
    func expansionCount(from start: Int, afterSlash startsAfterSlash: Bool = false) -> Int? {
        var i = start
        var afterSlash = startsAfterSlash
        return countSequence(&i, afterSlash: &afterSlash, depth: 0, segmentStart: hostOffset > 0 ? hostOffset : start)
    }

    /// ``expandSequence(_:afterSlash:depth:inside:segmentStart:)``, counting: the same steps,
    /// none of its checks but those it needs to read on.
    private func countSequence(_ i: inout Int, afterSlash: inout Bool, depth: Int, segmentStart: Int) -> Int? {
        var count = 1
        var segmentStart = segmentStart
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: ")") { return count }
            if byte == Bytes.slash {
                afterSlash = true
                segmentStart = i + 1
                i += 1
                continue
            }
            guard byte == UInt8(ascii: "(") else {
                afterSlash = false
                i += 1
                continue
            }
            let follows = afterSlash ? nil : parameterName(segmentStart..<i)
            if let follows, i + 1 == bytes.count || bytes[i + 1] != Bytes.slash {
                guard let end = try? regexEnd(from: i, parameter: follows) else { return nil }
                i = end
                continue
            }
            // Nesting d deep makes at least d + 2: deeper than the cap allows is refused unread.
            guard depth + 2 <= maximumExpansions else { return Int.max }
            i += 1
            var endsAfterSlash = afterSlash
            guard let inner = countSequence(&i, afterSlash: &endsAfterSlash, depth: depth + 1, segmentStart: i),
                i < bytes.count
            else { return nil }
            i += 1
            let (product, overflow) = count.multipliedReportingOverflow(by: inner == Int.max ? Int.max : inner + 1)
            count = overflow ? Int.max : product
            segmentStart = i
        }
        return count
    }

    private func emptySegment(at slash: Int) -> PatternSyntaxError {
        guard bytes[slash - 1] == Bytes.slash else {
            return error(
                "\"/\" right after an optional group that ends with \"/\" makes \"//\" when the group is left out; remove it",
                slash)
        }
        return error("empty segment (\"//\"); remove the extra \"/\"", slash - 1)
    }

    private func tooManyExpansions(at open: Int) -> PatternSyntaxError {
        error("optional groups expand to more than \(maximumExpansions) patterns; split the route", open)
    }

    /// The name of the parameter `range` holds, `:identifier`, if it holds one.
    private func parameterName(_ range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == Bytes.colon,
            bytes[(range.lowerBound + 1)..<range.upperBound].allSatisfy(Self.isIdentifierByte)
        else { return nil }
        return text(range.lowerBound + 1, range.upperBound)
    }

    /// Regex syntax: in a group right after a parameter, a regex meant to start with "/"
    /// far more likely than a segment that holds it (which can percent-encode it).
    private static func isRegexSyntax(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "|"), UInt8(ascii: "+"), UInt8(ascii: "?"):
            return true
        default: return false
        }
    }

    /// Bytes that make a segment more than a plain constant: `*`, `(`, `)`, `%`.
    private static func needsReading(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "*") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == Bytes.percent
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        Bytes.isAlpha(byte) || Bytes.isDigit(byte) || byte == UInt8(ascii: "_")
    }

    /// The offset just past the `)` that closes the regex opened at `open`; when none
    /// does, an error naming what is missing: the `]` of a class, or a `)`.
    private func regexEnd(from open: Int, parameter name: String) throws(PatternSyntaxError) -> Int {
        var groups: [Int] = []  // the "(" still open, the regex's own first
        var classStart: Int?
        // The class that took as a character the ")" that would have ended the regex, and
        // whether it then ran on across a "/": a "]" left out, most likely.
        var swallowing: (classStart: Int, parenthesis: Int)?
        var crossesSlash = false
        var i = open
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "[") where classStart == nil: classStart = i
            case UInt8(ascii: "]") where classStart != nil: classStart = nil
            case UInt8(ascii: "(") where classStart == nil: groups.append(i)
            case UInt8(ascii: ")") where classStart == nil:
                groups.removeLast()
                guard groups.isEmpty else { break }
                if let swallowing, crossesSlash, (try? RouteRegex(text(open + 1, i))) == nil {
                    throw unclosedClass(swallowing.classStart, regexFrom: open, to: swallowing.parenthesis, name)
                }
                return i + 1
            case UInt8(ascii: ")") where groups.count == 1 && swallowing == nil:
                if let classStart { swallowing = (classStart, i) }
            case Bytes.slash where swallowing != nil && classStart == swallowing?.classStart:
                crossesSlash = true
            default: break
            }
            i += 1
        }
        if let swallowing, crossesSlash {
            throw unclosedClass(swallowing.classStart, regexFrom: open, to: swallowing.parenthesis, name)
        }
        if let classStart { throw unclosedClass(classStart, regexFrom: open, to: bytes.count, name) }
        let problem: String
        let at: Int
        if groups.count > 1 {
            let offsets = groups.dropFirst().map { String(scalarOffset($0, inRegexFrom: open)) }
            let which =
                offsets.count == 1
                ? "the group opened at offset \(offsets[0])"
                : "the groups opened at offsets \(offsets.dropLast().joined(separator: ", ")) and \(offsets.last ?? "")"
            problem = "missing \")\" for \(which), and one to end the regex"
            at = groups[groups.count - 1]
        } else {
            problem = "missing \")\" to end the regex"
            at = open
        }
        throw error("regex \"\(text(open + 1, bytes.count))\" of parameter \"\(name)\": \(problem)", at)
    }

    /// The error for a class opened at `classStart` that no `]` closes before `end`, where
    /// the regex is taken to end.
    private func unclosedClass(_ classStart: Int, regexFrom open: Int, to end: Int, _ name: String)
        -> PatternSyntaxError
    {
        error(
            "regex \"\(text(open + 1, end))\" of parameter \"\(name)\": missing \"]\" for the class opened at offset \(scalarOffset(classStart, inRegexFrom: open)); close it, or write \"\\[\" for the character",
            classStart)
    }

    /// The pattern's text from `start` to `end`.
    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The offset of `offset` in the regex opened at `open`, counted in scalars as
    /// RouteRegex's messages count them.
    private func scalarOffset(_ offset: Int, inRegexFrom open: Int) -> Int {
        bytes[(open + 1)..<offset].reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    }

    /// The path from `start` as written, when it has no optional group and no regex (no
    /// parentheses): most patterns, which need no expansion.
    func plainPath(from start: Int) -> ArraySlice<UInt8>? {
        let path = bytes[start...]
        return path.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") }) ? nil : path
    }

    /// Splits an expanded path into segments.
    /// - Parameter first: A segment that goes before the path's own (the host read as a path).
    func segments(of path: ExpandedPath, after first: (segment: PatternSegment, offset: Int)? = nil)
        throws(PatternSyntaxError) -> [(segment: PatternSegment, offset: Int)]
    {
        try segments(path.bytes[...], offset: { path.offsets[$0] }, after: first)
    }

    /// Splits a path of ``plainPath(from:)`` into segments.
    func segments(ofPlain path: ArraySlice<UInt8>, after first: (segment: PatternSegment, offset: Int)? = nil)
        throws(PatternSyntaxError) -> [(segment: PatternSegment, offset: Int)]
    {
        try segments(path, offset: { $0 }, after: first)
    }

    /// Splits `b` into segments; `offset` maps an index of `b` to an offset in the pattern.
    private func segments(
        _ b: ArraySlice<UInt8>, offset: (Int) -> Int, after first: (segment: PatternSegment, offset: Int)?
    ) throws(PatternSyntaxError) -> [(segment: PatternSegment, offset: Int)] {
        var segments: [(segment: PatternSegment, offset: Int)] = []
        segments.reserveCapacity(8)
        if let first { segments.append(first) }
        guard let head = b.first else { return segments }
        guard head == Bytes.slash else {
            throw error("the path must start with \"/\"", offset(b.startIndex))
        }
        // Split on "/" outside regex parentheses (read as `regexEnd` reads them: a class
        // may hold parentheses); each piece is read as it is found.
        func read(_ piece: Range<Int>) throws(PatternSyntaxError) {
            let at = piece.isEmpty ? offset(piece.lowerBound - 1) : offset(piece.lowerBound)
            guard !piece.isEmpty else {
                throw error("empty segment (\"//\"); remove the extra \"/\"", at)
            }
            segments.append((try segment(b[piece], at: at), at))
        }
        var start = b.startIndex + 1
        var depth = 0
        var inClass = false
        var i = start
        while i < b.endIndex {
            switch b[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "[") where depth > 0: inClass = true
            case UInt8(ascii: "]") where inClass: inClass = false
            case UInt8(ascii: "(") where !inClass: depth += 1
            case UInt8(ascii: ")") where !inClass: depth -= 1
            case Bytes.slash where depth == 0:
                try read(start..<i)
                start = i + 1
            default: break
            }
            i += 1
        }
        if start < b.endIndex { try read(start..<b.endIndex) }  // else a trailing "/"
        return segments
    }

    /// Reads one segment: `*`, `**`, `:name`, `:name(regex)` or a constant.
    func segment(_ text: String, at offset: Int) throws(PatternSyntaxError) -> PatternSegment {
        try segment(Array(text.utf8)[...], at: offset)
    }

    /// Reads one segment from its bytes (a slice of an expanded path).
    private func segment(_ slice: ArraySlice<UInt8>, at offset: Int) throws(PatternSyntaxError) -> PatternSegment {
        if slice.count == 1 || slice.count == 2, slice.allSatisfy({ $0 == UInt8(ascii: "*") }) {
            return slice.count == 1 ? .wildcard : .catchAll
        }
        // A constant without escapes, the common case, is its own text (the bytes come
        // from a `String` split at ASCII bytes, so they are UTF-8).
        if slice.first != Bytes.colon, !slice.contains(where: Self.needsReading) {
            return .constant(String(decoding: slice, as: UTF8.self))
        }
        let b = Array(slice)
        if b.first == Bytes.colon {
            var i = 1
            while i < b.count, Self.isIdentifierByte(b[i]) { i += 1 }
            let name = String(decoding: b[1..<i], as: UTF8.self)
            guard !name.isEmpty, !Bytes.isDigit(b[1]) else {
                throw error("a parameter needs a name of letters, digits and \"_\": \":id\"", offset)
            }
            if i == b.count { return .parameter(name: name, regex: nil) }
            guard b[i] == UInt8(ascii: "("), b.last == UInt8(ascii: ")"), b.count - i > 2 else {
                throw error("a parameter takes the whole segment: \":\(name)\" or \":\(name)(regex)\"", offset)
            }
            let regex = String(decoding: b[(i + 1)..<(b.count - 1)], as: UTF8.self)
            do {
                _ = try RouteRegex(regex)
            } catch {
                throw self.error(
                    "regex \"\(regex)\" of parameter \"\(name)\": \(error.message)", offset + i + 1 + error.offset)
            }
            return .parameter(name: name, regex: regex)
        }
        if let star = b.firstIndex(where: {
            $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")")
        }) {
            throw error(
                "\"\(Character(Unicode.Scalar(b[star])))\" inside a segment; \"*\" and \"**\" stand alone, \"(…)\" follows \":name\" or is an optional group: \"(/…)\" after a segment, \"(…/)\" after \"/\"",
                offset + star)
        }
        let problem: (offset: Int, problem: PercentDecoding.Problem)? = b.withUnsafeBufferPointer {
            PercentDecoding.firstProblem(in: $0, 0..<$0.count)
        }
        if let problem {
            let what =
                problem.problem == .invalidEscape ? "invalid percent-escape" : "percent-escapes that are not UTF-8"
            throw error("\(what) in \"\(String(decoding: b, as: UTF8.self))\"", offset + problem.offset)
        }
        return .constant(b.withUnsafeBufferPointer { PercentDecoding.decodedString($0, plusAsSpace: false) })
    }
}
