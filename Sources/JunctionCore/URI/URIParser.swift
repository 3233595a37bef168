/// One pass over a URI reference's UTF-8, following RFC 3986 Appendix B for the
/// structure and §3 for what each component may hold.
struct URIParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let input: String
    let strict: Bool

    func parse() -> Result<URILayout, URIError> {
        do throws(URIError) {
            return .success(try parseLayout())
        } catch {
            return .failure(error)
        }
    }

    private func fail(_ code: URIError.Code, at offset: Int, detail: String = "") -> URIError {
        URIError(code, at: offset, in: input, detail: detail)
    }

    private func parseLayout() throws(URIError) -> URILayout {
        let n = bytes.count
        guard n <= URI.maximumLength else {
            throw fail(.tooLong, at: URI.maximumLength, detail: "(more than \(URI.maximumLength) bytes)")
        }
        var layout = URILayout()
        var position = 0

        // scheme ":" — only when a ":" comes before any of "/?#".
        var i = 0
        var schemeIsClean = n > 0 && Bytes.isAlpha(bytes[0])
        while i < n {
            let byte = bytes[i]
            if byte == Bytes.colon { break }
            if byte == Bytes.slash || byte == Bytes.question || byte == Bytes.hash {
                i = n
                break
            }
            // Never valid, whether this turns out to be scheme or path: name it as what it is.
            if Bytes.isControl(byte) { throw fail(.controlCharacter, at: i, detail: "U+\(hex4(byte))") }
            if !(Bytes.isAlpha(byte) || Bytes.isDigit(byte) || byte == Bytes.plus || byte == UInt8(ascii: "-")
                || byte == Bytes.dot)
            {
                schemeIsClean = false
            }
            i += 1
        }
        if i < n {
            guard schemeIsClean, i > 0 else {
                let bad = i == 0 ? 0 : firstNonSchemeByte(upTo: i)
                throw fail(
                    .invalidScheme, at: bad,
                    detail:
                        "\"\(text(0, i))\" (a scheme is a letter followed by letters, digits, \"+\", \"-\" or \".\")")
            }
            layout.schemeEnd = Int32(i)
            layout.originNeedsFolding = Bytes.containsUppercaseASCII(UnsafeBufferPointer(rebasing: bytes[0..<i]))
            position = i + 1
        }

        // "//" authority
        if position + 1 < n, bytes[position] == Bytes.slash, bytes[position + 1] == Bytes.slash {
            let start = position + 2
            var end = start
            while end < n, bytes[end] != Bytes.slash, bytes[end] != Bytes.question, bytes[end] != Bytes.hash {
                // Here, so one in a port or an IP literal is named as such, not as a bad port or host.
                if Bytes.isControl(bytes[end]) {
                    throw fail(.controlCharacter, at: end, detail: "U+\(hex4(bytes[end]))")
                }
                end += 1
            }
            try parseAuthority(start, end, into: &layout)
            position = end
        }

        // path
        layout.pathStart = Int32(position)
        var sawEscape = false
        while position < n, bytes[position] != Bytes.question, bytes[position] != Bytes.hash {
            try check(position, set: CharacterSets.path, sawEscape: &sawEscape)
            position += 1
        }
        layout.pathEnd = Int32(position)
        layout.pathHasEscapes = sawEscape
        if sawEscape { try validateEscapes(Int(layout.pathStart), position) }

        // "?" query
        if position < n, bytes[position] == Bytes.question {
            position += 1
            layout.queryStart = Int32(position)
            sawEscape = false
            while position < n, bytes[position] != Bytes.hash {
                try check(position, set: CharacterSets.queryOrFragment, sawEscape: &sawEscape)
                position += 1
            }
            if sawEscape { try validateEscapes(Int(layout.queryStart), position) }
        }

        // "#" fragment
        if position < n, bytes[position] == Bytes.hash {
            position += 1
            layout.fragmentStart = Int32(position)
            sawEscape = false
            while position < n {
                try check(position, set: CharacterSets.queryOrFragment, sawEscape: &sawEscape)
                position += 1
            }
            if sawEscape { try validateEscapes(Int(layout.fragmentStart), position) }
        }
        return layout
    }

    private func parseAuthority(_ start: Int, _ end: Int, into layout: inout URILayout) throws(URIError) {
        layout.authorityStart = Int32(start)
        var hostStart = start
        // userinfo "@" — the last "@" ends it, so "a@b@host" names "host" (an "@" inside
        // userinfo is an error in strict mode).
        // Search the slice, not a rebased buffer: its indices are offsets into `bytes`.
        if let at = bytes[start..<end].lastIndex(of: Bytes.at) {
            var sawEscape = false
            for j in start..<at {
                try check(j, set: CharacterSets.userinfo, sawEscape: &sawEscape)
            }
            if sawEscape { try validateEscapes(start, at) }
            layout.userinfoEnd = Int32(at)
            hostStart = at + 1
        }
        layout.hostStart = Int32(hostStart)

        var hostEnd: Int
        if hostStart < end, bytes[hostStart] == Bytes.openBracket {
            guard let close = bytes[hostStart..<end].firstIndex(of: Bytes.closeBracket) else {
                throw fail(.invalidHost, at: hostStart, detail: "(\"[\" without \"]\")")
            }
            let literal = UnsafeBufferPointer(rebasing: bytes[(hostStart + 1)..<close])
            if literal.first.map({ $0 | 0x20 == UInt8(ascii: "v") }) ?? false {
                guard IPAddressSyntax.isIPvFuture(literal) else {
                    throw fail(.invalidHost, at: hostStart, detail: "\"\(text(hostStart, close + 1))\"")
                }
                layout.hostKind = .ipvFuture
            } else {
                guard IPAddressSyntax.isIPv6(literal) else {
                    throw fail(.invalidIPv6, at: hostStart, detail: "\"\(text(hostStart, close + 1))\"")
                }
                // A zone ID's escapes must decode to UTF-8 like any other, or `host` could not.
                if literal.contains(Bytes.percent) { try validateEscapes(hostStart + 1, close) }
                layout.hostKind = .ipv6
            }
            hostEnd = close + 1
            guard hostEnd == end || bytes[hostEnd] == Bytes.colon else {
                throw fail(.invalidHost, at: hostEnd, detail: "(text after \"]\")")
            }
            if Bytes.containsUppercaseASCII(literal) { layout.originNeedsFolding = true }
        } else {
            hostEnd = hostStart
            var sawEscape = false
            while hostEnd < end, bytes[hostEnd] != Bytes.colon {
                let byte = bytes[hostEnd]
                if byte == Bytes.percent {
                    sawEscape = true
                } else if byte < 0x80 || strict {
                    guard CharacterSets.table[Int(byte)] & CharacterSets.regName != 0 else {
                        throw fail(
                            .invalidHost, at: hostEnd,
                            detail: "(\"\(text(hostEnd, hostEnd + 1))\" cannot appear in a host)")
                    }
                }
                hostEnd += 1
            }
            if sawEscape {
                try validateEscapes(hostStart, hostEnd)
                layout.originNeedsFolding = true
            }
            let host = UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd])
            if IPAddressSyntax.isIPv4(host) { layout.hostKind = .ipv4 }
            if Bytes.containsUppercaseASCII(host) { layout.originNeedsFolding = true }
        }
        layout.hostEnd = Int32(hostEnd)

        // ":" port
        if hostEnd < end {
            var value = 0
            for j in (hostEnd + 1)..<end {
                guard Bytes.isDigit(bytes[j]) else {
                    throw fail(
                        .invalidPort, at: j,
                        detail: "\"\(text(hostEnd + 1, end))\" (a port is a number from 0 to 65535)")
                }
                value = value * 10 + Int(bytes[j] - UInt8(ascii: "0"))
                guard value <= 65535 else {
                    throw fail(
                        .invalidPort, at: hostEnd + 1,
                        detail: "\"\(text(hostEnd + 1, end))\" (a port is a number from 0 to 65535)")
                }
            }
            if end > hostEnd + 1 { layout.port = Int32(value) }
        }
    }

    /// Checks one byte of a component: controls are always errors; in strict mode the
    /// byte must belong to `set`.
    @inline(__always)
    private func check(_ offset: Int, set: UInt8, sawEscape: inout Bool) throws(URIError) {
        let byte = bytes[offset]
        if byte == Bytes.percent {
            sawEscape = true
        } else if Bytes.isControl(byte) {
            throw fail(.controlCharacter, at: offset, detail: "U+\(hex4(byte))")
        } else if strict, CharacterSets.table[Int(byte)] & set == 0 {
            throw fail(.disallowedCharacter, at: offset, detail: "\"\(character(at: offset))\"")
        }
    }

    private func validateEscapes(_ start: Int, _ end: Int) throws(URIError) {
        guard let (offset, problem) = PercentDecoding.firstProblem(in: bytes, start..<end) else { return }
        switch problem {
        case .invalidEscape:
            throw fail(.invalidPercentEscape, at: offset, detail: "\"\(text(offset, min(offset + 3, end)))\"")
        case .invalidUTF8:
            throw fail(.invalidUTF8, at: offset, detail: "from \"\(text(offset, min(offset + 12, end)))\"")
        }
    }

    private func firstNonSchemeByte(upTo end: Int) -> Int {
        if !Bytes.isAlpha(bytes[0]) { return 0 }
        for j in 0..<end where CharacterSets.table[Int(bytes[j])] & CharacterSets.scheme == 0 {
            return j
        }
        return 0
    }

    private func text(_ start: Int, _ end: Int) -> String {
        URIError.escapeControls(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }

    private func character(at offset: Int) -> String {
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return text(offset, end)
    }

    private func hex4(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
