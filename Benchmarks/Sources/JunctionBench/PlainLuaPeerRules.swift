import CLuaPeer
import JunctionCore

/// The peer's rules on a plain Lua 5.4 state, the way an app embedding Lua directly
/// would call them: the stock C API, the standard libraries, no sandbox (no instruction
/// or memory budgets, no read-only tables). Each call builds a plain request table;
/// `ctx` is built once per context and kept in the registry.
final class PlainLuaPeerRules: PeerRuleRunner {
    private let state: OpaquePointer
    private var functions: [Int32] = []
    private var contextReference: Int32 = LUA_NOREF

    /// `reject` and `gate` as plain constructors of the verdict tables Junction's own make.
    static let helpers = """
        function reject(reason, code) return { verdict = "reject", reason = reason, code = code } end
        function gate(url, options)
          return { verdict = "gate", url = url, resume = not (options ~= nil and options.resume == false) }
        end

        """

    init() throws(BenchmarkFailure) {
        guard let state = luaL_newstate() else { throw BenchmarkFailure("decide: luaL_newstate failed") }
        self.state = state
        luaL_openlibs(state)
        let source = Self.helpers + PolicyBundleGenerator.ruleFunctions
        guard pl_loadtext(state, source, source.utf8.count, "peer.lua") == LUA_OK, pl_pcall(state, 0, 0) == LUA_OK
        else {
            let message = lua_tolstring(state, -1, nil).map { String(cString: $0) } ?? "?"
            lua_close(state)
            throw BenchmarkFailure("decide: the plain-Lua peer's rules do not load: \(message)")
        }
        for rule in PeerRule.allCases {
            guard lua_getglobal(state, rule.function) == LUA_TFUNCTION else {
                lua_close(state)
                throw BenchmarkFailure("decide: the plain-Lua peer defines no \(rule.function)")
            }
            functions.append(luaL_ref(state, pl_registryindex()))
        }
    }

    deinit {
        lua_close(state)
    }

    func setContext(_ values: [String: RuleValue]) {
        if contextReference != LUA_NOREF { luaL_unref(state, pl_registryindex(), contextReference) }
        push(.table(values))
        contextReference = luaL_ref(state, pl_registryindex())
    }

    func run(_ rule: PeerRule, _ request: PeerRequest) -> Verdict {
        let base = lua_gettop(state)
        defer { lua_settop(state, base) }
        _ = lua_rawgeti(state, pl_registryindex(), lua_Integer(functions[PeerRule.allCases.firstIndex(of: rule)!]))
        lua_createtable(state, 0, 4)
        _ = lua_pushstring(state, request.url)
        lua_setfield(state, -2, "url")
        _ = lua_pushstring(state, request.path)
        lua_setfield(state, -2, "path")
        _ = lua_pushstring(state, request.source)
        lua_setfield(state, -2, "source")
        lua_createtable(state, 0, Int32(request.params.count))
        for (name, value) in request.params {
            _ = lua_pushstring(state, value)
            lua_setfield(state, -2, name)
        }
        lua_setfield(state, -2, "params")
        _ = lua_rawgeti(state, pl_registryindex(), lua_Integer(contextReference))
        guard pl_pcall(state, 2, 1) == LUA_OK else {
            let message = lua_tolstring(state, -1, nil).map { String(cString: $0) } ?? "?"
            return .reject(reason: message, code: 500)
        }
        return verdict()
    }

    /// The verdict on the top of the stack.
    private func verdict() -> Verdict {
        switch lua_type(state, -1) {
        case LUA_TNIL: return .continue
        case LUA_TTABLE: break
        default: return .reject(reason: "not a verdict", code: 500)
        }
        func string(_ key: String) -> String? {
            defer { pl_pop(state, 1) }
            guard lua_getfield(state, -1, key) == LUA_TSTRING else { return nil }
            return String(cString: lua_tolstring(state, -1, nil))
        }
        switch string("verdict") {
        case "gate":
            return .gate(url: string("url") ?? "", resume: true)
        case "reject":
            let code: Int? = lua_getfield(state, -1, "code") == LUA_TNUMBER ? Int(lua_tointegerx(state, -1, nil)) : nil
            pl_pop(state, 1)
            return .reject(reason: string("reason") ?? "", code: code)
        case let other:
            return .reject(reason: "unexpected verdict \(other ?? "nil")", code: 500)
        }
    }

    /// Pushes a context value as plain tables.
    private func push(_ value: RuleValue) {
        switch value {
        case .nil: lua_pushnil(state)
        case .bool(let flag): lua_pushboolean(state, flag ? 1 : 0)
        case .int(let number): lua_pushinteger(state, lua_Integer(number))
        case .double(let number): lua_pushnumber(state, number)
        case .string(let text): _ = lua_pushstring(state, text)
        case .bytes(let bytes):
            _ = bytes.withUnsafeBufferPointer {
                lua_pushlstring(state, UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: CChar.self), $0.count)
            }
        case .array(let elements):
            lua_createtable(state, Int32(elements.count), 0)
            for (offset, element) in elements.enumerated() {
                push(element)
                lua_rawseti(state, -2, lua_Integer(offset + 1))
            }
        case .table(let fields):
            lua_createtable(state, 0, Int32(fields.count))
            for (key, element) in fields {
                push(element)
                lua_setfield(state, -2, key)
            }
        }
    }
}
