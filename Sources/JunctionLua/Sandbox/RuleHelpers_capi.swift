internal import CLua
import JunctionCore

/// The helpers the rule API gives Lua: `version.compare`, `rollout`, `url.*`.
///
/// Each is a `lua_CFunction` in two parts: a nested Swift function does the work and
/// pushes its result through ``RuleValueWriter`` (which builds inside its own protected
/// call), then returns an ``Outcome``; only the outer closure, which holds no Swift
/// value, raises. So a `longjmp` never skips a Swift reference.
///
/// Their work is charged to the budget like a library function's (``ChargePolicy``): the
/// bytes of their string arguments before it starts (the outer closure refuses to start
/// past what is left), and what they produce once it is done.
enum RuleHelpers {
    /// What a helper's work ended in.
    enum Outcome {
        /// This many results are on the stack, for which `produced` units are charged.
        case results(Int32, produced: Int)
        /// The error message is on top of the stack: raise it.
        case failure
        /// The work done went past the budget: raise the budget error.
        case budgetExceeded
    }

    /// Charges the bytes of the string arguments `1...count` before a helper reads them.
    /// Returns `false` when that is more than is left: raise the budget error then.
    @inline(__always)
    static func prepay(_ state: OpaquePointer?, stringArguments count: Int32) -> Bool {
        var bytes = 0
        for index in 1...count where lua_type(state, index) == LUA_TSTRING {
            bytes = WorkCost.sum(bytes, Int(lua_rawlen(state, index)))
        }
        return bytes == 0 || SandboxContext.charge(state, WorkCost.bytes(bytes))
    }

    /// Returns the results, or raises the error on top of the stack.
    @inline(__always)
    static func finish(_ state: OpaquePointer?, _ outcome: Outcome) -> Int32 {
        switch outcome {
        case .results(let count, let produced):
            guard produced == 0 || SandboxContext.charge(state, produced) else {
                return SandboxContext.raiseBudgetExceeded(state)
            }
            return count
        case .budgetExceeded:
            return SandboxContext.raiseBudgetExceeded(state)
        case .failure:
            // "chunk:line: " of the rule that called the helper, then the message.
            luaL_where(state, 1)
            jl_insert(state, -2)
            lua_concat(state, 2)
            return lua_error(state)
        }
    }

    /// `version.compare(a, b)`: -1, 0 or 1 as Semantic Versioning orders `a` and `b`
    /// (`"5.2.0"` < `"5.10.1"`; `"5.2"` is `"5.2.0"`), read by ``SemanticVersion``'s grammar.
    static let compareVersions: lua_CFunction = { state in
        guard prepay(state, stringArguments: 2) else { return SandboxContext.raiseBudgetExceeded(state) }
        return finish(state, compareVersions(state))
    }

    private static func compareVersions(_ state: OpaquePointer?) -> Outcome {
        let left: SemanticVersion
        let right: SemanticVersion
        switch (version(state, 1), version(state, 2)) {
        case (.success(let a), .success(let b)): (left, right) = (a, b)
        case (.failure(let message), _), (_, .failure(let message)): return fail(state, message.text)
        }
        lua_pushinteger(state, left < right ? -1 : (right < left ? 1 : 0))
        return .results(1, produced: 0)
    }

    /// The version argument at `index`, or the message that says why it is not one.
    private static func version(_ state: OpaquePointer?, _ index: Int32) -> Result<SemanticVersion, VersionMessage> {
        guard let text = string(state, index) else {
            let got: String
            switch lua_type(state, index) {
            case LUA_TNUMBER:
                got =
                    "argument \(index) is the number \(numberText(state, index)); quote versions where they are "
                    + "written (in YAML, 5.2 alone is a number)"
            case LUA_TNONE: got = "argument \(index) is missing"
            case LUA_TNIL: got = "argument \(index) is nil"
            default: got = "argument \(index) is a \(String(cString: jl_typename(state, index)))"
            }
            return .failure(
                VersionMessage(text: "version.compare(a, b) takes two version strings such as \"5.2.0\"; \(got)"))
        }
        do {
            return .success(try SemanticVersion(parsing: text))
        } catch {
            return .failure(VersionMessage(text: "version.compare: \(error)"))
        }
    }

    /// Why an argument of `version.compare` is not a version.
    struct VersionMessage: Error {
        let text: String
    }

    /// `rollout(key, id, percent)`: whether `id` is in the first `percent` percent of
    /// the rollout `key` — the same answer on every device and in the CLI.
    static let rollout: lua_CFunction = { state in
        guard prepay(state, stringArguments: 2) else { return SandboxContext.raiseBudgetExceeded(state) }
        return finish(state, rollout(state))
    }

    private static func rollout(_ state: OpaquePointer?) -> Outcome {
        guard let key = string(state, 1), let id = string(state, 2) ?? integerText(state, 2),
            lua_type(state, 3) == LUA_TNUMBER
        else {
            return fail(
                state, "rollout(key, id, percent) takes a name, a user or device id and a percentage from 0 to 100")
        }
        let percent = lua_tonumberx(state, 3, nil)
        guard percent.isFinite else { return fail(state, "rollout: the percentage must be a number from 0 to 100") }
        lua_pushboolean(state, Rollout.includes(key: key, id: id, percent: percent) ? 1 : 0)
        return .results(1, produced: 0)
    }

    /// `url.encode(s)`: percent-encodes every byte but `A–Z a–z 0–9 - . _ ~`.
    static let encode: lua_CFunction = { state in
        guard prepay(state, stringArguments: 1) else { return SandboxContext.raiseBudgetExceeded(state) }
        return finish(state, encode(state))
    }

    private static func encode(_ state: OpaquePointer?) -> Outcome {
        guard let text = string(state, 1) else { return fail(state, "url.encode(s) takes a string") }
        return push(.string(PercentEncoding.encode(text)), into: state)
    }

    /// `url.decode(s [, plus_as_space])`: decodes once; invalid escapes are errors.
    static let decode: lua_CFunction = { state in
        guard prepay(state, stringArguments: 1) else { return SandboxContext.raiseBudgetExceeded(state) }
        return finish(state, decode(state))
    }

    private static func decode(_ state: OpaquePointer?) -> Outcome {
        guard let text = string(state, 1) else { return fail(state, "url.decode(s) takes a string") }
        do {
            return push(
                .string(try PercentEncoding.decode(text, plusAsSpace: lua_toboolean(state, 2) != 0)), into: state)
        } catch {
            return fail(state, "url.decode: \(error)")
        }
    }

    /// `url.parse(s)`: `{ scheme, user, host, port, path, segments, query, fragment }`
    /// with every part decoded once; `query` maps each name to its first value and
    /// `query_all` to every value. Absent parts are nil; an invalid URL is an error.
    static let parse: lua_CFunction = { state in
        guard prepay(state, stringArguments: 1) else { return SandboxContext.raiseBudgetExceeded(state) }
        return finish(state, parse(state))
    }

    private static func parse(_ state: OpaquePointer?) -> Outcome {
        guard let text = string(state, 1) else { return fail(state, "url.parse(s) takes a string") }
        let uri: URI
        do {
            uri = try URI(text)
        } catch {
            return fail(state, "url.parse: \(error)")
        }
        var parts: [String: RuleValue] = [
            "path": .string(uri.path),
            "segments": .array(uri.pathSegments.map { .string($0) }),
        ]
        if let scheme = uri.scheme { parts["scheme"] = .string(scheme) }
        if let user = uri.userinfo { parts["user"] = .string(user) }
        if let host = uri.host { parts["host"] = .string(host) }
        if let port = uri.port { parts["port"] = .int(Int64(port)) }
        if let fragment = uri.fragment { parts["fragment"] = .string(fragment) }
        var first: [String: RuleValue] = [:]
        var all: [String: RuleValue] = [:]
        for (name, values) in uri.query.grouped {
            first[name] = .string(values[0])
            all[name] = .array(values.map { .string($0) })
        }
        parts["query"] = .table(first)
        parts["query_all"] = .table(all)
        return push(.table(parts), into: state)
    }

    /// `url.build{ scheme, host, path | segments, query, fragment }`: the inverse of
    /// `url.parse`, encoding each part; `query` values may be strings, numbers,
    /// booleans or lists of them, and names are written in sorted order.
    static let build: lua_CFunction = { state in
        finish(state, build(state))
    }

    private static func build(_ state: OpaquePointer?) -> Outcome {
        guard lua_type(state, 1) == LUA_TTABLE else {
            return fail(
                state, "url.build{...} takes a table such as { scheme = \"myapp\", host = \"user\", path = \"/42\" }")
        }
        var reader = RuleValueReader(state: state.unsafelyUnwrapped, chunkName: "url.build", name: "parts")
        let value: RuleValue
        do {
            value = try reader.read(at: 1)
        } catch {
            guard chargeReading(reader, state) else { return .budgetExceeded }
            return fail(state, "url.build: \(error.message)")
        }
        guard chargeReading(reader, state) else { return .budgetExceeded }
        guard case .table(let parts) = value else { return fail(state, "url.build: the table must have named parts") }
        var text = ""
        if case .string(let scheme)? = parts["scheme"] { text += scheme + ":" }
        if case .string(let host)? = parts["host"] {
            text += "//" + PercentEncoding.encode(host)
            if case .int(let port)? = parts["port"] { text += ":\(port)" }
        }
        if case .array(let segments)? = parts["segments"] {
            for segment in segments { text += "/" + PercentEncoding.encode(plain(segment)) }
        } else if case .string(let path)? = parts["path"] {
            text += path.split(separator: "/", omittingEmptySubsequences: false)
                .map { PercentEncoding.encode(String($0)) }.joined(separator: "/")
        }
        if case .table(let query)? = parts["query"], !query.isEmpty {
            var items: [String] = []
            for name in query.keys.sorted() {
                let values: [RuleValue]
                if case .array(let list) = query[name]! { values = list } else { values = [query[name]!] }
                for item in values {
                    items.append(PercentEncoding.encode(name) + "=" + PercentEncoding.encode(plain(item)))
                }
            }
            text += "?" + items.joined(separator: "&")
        }
        if case .string(let fragment)? = parts["fragment"] { text += "#" + PercentEncoding.encode(fragment) }
        return push(.string(text), into: state)
    }

    // MARK: - Support

    /// Charges what `reader` went through (the argument of `url.build`, whose size is
    /// known only once read); `false` past the budget.
    private static func chargeReading(_ reader: RuleValueReader, _ state: OpaquePointer?) -> Bool {
        SandboxContext.charge(
            state, WorkCost.sum(WorkCost.elements(reader.valueCount), WorkCost.bytes(reader.stringBytes)))
    }

    /// The work of producing `value`: a unit per value, and the bytes of its strings and keys.
    private static func producedUnits(of value: RuleValue) -> Int {
        switch value {
        case .string(let text): WorkCost.sum(WorkCost.elements(1), WorkCost.bytes(text.utf8.count))
        case .bytes(let bytes): WorkCost.sum(WorkCost.elements(1), WorkCost.bytes(bytes.count))
        case .array(let items): items.reduce(WorkCost.elements(1)) { WorkCost.sum($0, producedUnits(of: $1)) }
        case .table(let fields):
            fields.reduce(WorkCost.elements(1)) {
                WorkCost.sum($0, WorkCost.sum(WorkCost.bytes($1.key.utf8.count), producedUnits(of: $1.value)))
            }
        default: WorkCost.elements(1)
        }
    }

    /// A scalar as the text a URL carries.
    private static func plain(_ value: RuleValue) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return ""
        }
    }

    /// The string argument at `index`, if it is one. Never raises.
    private static func string(_ state: OpaquePointer?, _ index: Int32) -> String? {
        guard lua_type(state, index) == LUA_TSTRING else { return nil }
        var length = 0
        let bytes = lua_tolstring(state, index, &length)  // a string: not converted, cannot raise
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// A number argument as Lua writes it (`5`, `5.2`). Never raises.
    private static func numberText(_ state: OpaquePointer?, _ index: Int32) -> String {
        if lua_isinteger(state, index) != 0 { return String(lua_tointegerx(state, index, nil)) }
        return String(lua_tonumberx(state, index, nil))
    }

    /// An integer argument as text (ids are often numbers). Never raises.
    private static func integerText(_ state: OpaquePointer?, _ index: Int32) -> String? {
        guard lua_isinteger(state, index) != 0 else { return nil }
        return String(lua_tointegerx(state, index, nil))
    }

    /// Pushes a result; a value too big for the state's memory becomes the error.
    private static func push(_ value: RuleValue, into state: OpaquePointer?) -> Outcome {
        do {
            try RuleValueWriter.push(
                value, readOnly: false, into: state.unsafelyUnwrapped, name: "result", chunkName: "helper")
            return .results(1, produced: producedUnits(of: value))
        } catch {
            return fail(state, error.message)
        }
    }

    /// Pushes `message` as the error to raise. Falls back to a fixed message when even
    /// that cannot be built (out of memory).
    private static func fail(_ state: OpaquePointer?, _ message: String) -> Outcome {
        do {
            try RuleValueWriter.push(
                .string(message), readOnly: false, into: state.unsafelyUnwrapped, name: "message", chunkName: "helper")
        } catch {
            lua_pushlightuserdata(state, nil)  // no allocation; the message handler names its type
        }
        return .failure
    }
}
