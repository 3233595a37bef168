internal import CLua
internal import JunctionCore

extension LuaState {
    /// Reads the declarations summary that sealing returns (see `sealing.lua`) straight into
    /// ``RuleDeclarations``: each table walked once with `lua_next`, each field stored where
    /// it belongs. Through ``RuleValue`` the same read built a dictionary per declaration,
    /// a tenth of compiling a bundle of 200 rules.
    ///
    /// Allocates nothing in the state, so it cannot raise: `lua_next`, `lua_rawgeti` and
    /// reading strings and numbers that are already there. The summary is the prelude's own
    /// plain tables, made from declarations their functions checked, types included; only
    /// whether their strings are UTF-8 is checked here, where it costs the rules no budget.
    /// - Parameter index: Where the summary is on the stack.
    /// - Throws: ``LuaError/Code/memory`` when the stack cannot grow by the few slots the
    ///   walk takes; ``LuaError/Code/runtime``, at the declaration's line, when one of its
    ///   strings is not UTF-8 — read as no value, an interceptor's route that is not there
    ///   applied it to every route.
    func readDeclarations(at index: Int32) throws(LuaError) -> RuleDeclarations {
        try reserveStack(6, chunkName: "bundle", activity: "read the declarations")
        let summary = lua_absindex(handle, index)
        var declarations = RuleDeclarations()
        var failure: LuaError?
        forEachField(ofTableAt: summary) { list in
            do throws(LuaError) {
                switch list {
                case "redirects": declarations.redirects = try items(ofListAt: -1, readRedirect)
                case "interceptors": declarations.interceptors = try items(ofListAt: -1, readInterceptor)
                case "groups": declarations.groups = try items(ofListAt: -1, readGroup)
                case "fallbacks": declarations.fallbacks = try items(ofListAt: -1, readFallback)
                default: break
                }
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return declarations
    }

    /// The strings of one declaration that were not UTF-8, to be reported where it was
    /// declared.
    private struct NotText {
        /// The first field found whose string is not UTF-8, and whether it lists strings.
        var field: (key: String, isList: Bool)?
        /// The declaration's name, when it has one that is text.
        var name: String?

        /// Throws when a field was not text: "interceptor "a": route must be UTF-8 text".
        func check(_ what: String, location: String) throws(LuaError) {
            guard let field else { return }
            // As the prelude's `%q` writes a name.
            let described =
                name.map { name in
                    let escaped = String(name.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] } as [Character])
                    return "\(what) \"\(escaped)\""
                } ?? what
            let separator = location.lastIndex(of: ":")
            throw LuaError(
                code: .runtime, chunkName: separator.map { String(location[..<$0]) } ?? location,
                line: separator.flatMap { Int(location[location.index(after: $0)...]) },
                message: "\(described): \(field.key) must \(field.isList ? "list" : "be") UTF-8 text")
        }
    }

    private func readRedirect(at table: Int32) throws(LuaError) -> RuleDeclarations.Redirect {
        var redirect = RuleDeclarations.Redirect(
            from: "", to: "", condition: nil, keepQuery: false, onError: nil, location: "")
        var notText = NotText()
        forEachField(ofTableAt: table) { key in
            switch key {
            case "from": redirect.from = text(at: -1, key, &notText) ?? ""
            case "to": redirect.to = text(at: -1, key, &notText) ?? ""
            case "when": redirect.condition = integer(at: -1)
            case "keep_query":
                redirect.keepQuery = lua_type(handle, -1) == LUA_TBOOLEAN && lua_toboolean(handle, -1) != 0
            case "on_error": redirect.onError = text(at: -1).flatMap { RuleErrorPolicy(rawValue: $0) }
            case "at": redirect.location = text(at: -1) ?? ""
            default: break
            }
        }
        try notText.check("redirect", location: redirect.location)
        return redirect
    }

    private func readInterceptor(at table: Int32) throws(LuaError) -> RuleDeclarations.Interceptor {
        var interceptor = RuleDeclarations.Interceptor(
            name: "", scope: .all, priority: 0, onError: nil, function: 0, location: "")
        // One scope, in the order the declaration's checks gave them precedence.
        var route: String?
        var routes: [String]?
        var pattern: String?
        var patterns: [String]?
        var notText = NotText()
        forEachField(ofTableAt: table) { key in
            switch key {
            case "name":
                interceptor.name = text(at: -1, key, &notText) ?? ""
                notText.name = text(at: -1)
            case "route": route = text(at: -1, key, &notText)
            case "routes": routes = strings(ofListAt: -1, key, &notText)
            case "pattern": pattern = text(at: -1, key, &notText)
            case "patterns": patterns = strings(ofListAt: -1, key, &notText)
            case "priority": interceptor.priority = integer(at: -1) ?? 0
            case "on_error": interceptor.onError = text(at: -1).flatMap { RuleErrorPolicy(rawValue: $0) }
            case "run": interceptor.function = integer(at: -1) ?? 0
            case "at": interceptor.location = text(at: -1) ?? ""
            default: break
            }
        }
        try notText.check("interceptor", location: interceptor.location)
        interceptor.scope =
            if let route {
                .route(route)
            } else if let routes {
                .routes(routes)
            } else if let pattern {
                .pattern(pattern)
            } else if let patterns {
                .patterns(patterns)
            } else {
                .all
            }
        return interceptor
    }

    private func readGroup(at table: Int32) throws(LuaError) -> RuleDeclarations.GroupPolicy {
        var group = RuleDeclarations.GroupPolicy(name: "", function: 0, location: "")
        var notText = NotText()
        forEachField(ofTableAt: table) { key in
            switch key {
            case "name": group.name = text(at: -1, key, &notText) ?? ""
            case "run": group.function = integer(at: -1) ?? 0
            case "at": group.location = text(at: -1) ?? ""
            default: break
            }
        }
        try notText.check("group", location: group.location)
        return group
    }

    private func readFallback(at table: Int32) -> RuleDeclarations.Fallback {
        var fallback = RuleDeclarations.Fallback(function: 0, location: "")
        forEachField(ofTableAt: table) { key in
            switch key {
            case "run": fallback.function = integer(at: -1) ?? 0
            case "at": fallback.location = text(at: -1) ?? ""
            default: break
            }
        }
        return fallback
    }

    /// Calls `body` with each string key of the table at `table`, its value on top of the
    /// stack. Other keys are skipped: reading one as text would change it under `lua_next`.
    private func forEachField(ofTableAt table: Int32, _ body: (String) -> Void) {
        guard lua_type(handle, table) == LUA_TTABLE else { return }
        let table = lua_absindex(handle, table)
        lua_pushnil(handle)
        while lua_next(handle, table) != 0 {
            if lua_type(handle, -2) == LUA_TSTRING { body(Self.string(at: -2, in: handle)) }
            jl_pop(handle, 1)
        }
    }

    /// The items of the array at `list`, each table among them read by `read` (given its
    /// absolute index); items that are not tables are skipped.
    private func items<Item>(ofListAt list: Int32, _ read: (Int32) throws(LuaError) -> Item) throws(LuaError) -> [Item]
    {
        guard lua_type(handle, list) == LUA_TTABLE else { return [] }
        let list = lua_absindex(handle, list)
        let count = lua_rawlen(handle, list)
        var items: [Item] = []
        items.reserveCapacity(Int(count))
        var position: lua_Integer = 1
        while position <= lua_Integer(count) {
            var failure: LuaError?
            if lua_rawgeti(handle, list, position) == LUA_TTABLE {
                do throws(LuaError) { items.append(try read(lua_gettop(handle))) } catch { failure = error }
            }
            // Popped before anything is thrown: the `lua_next` walk around this one reads the
            // stack's top as its key, and a key out of place raises outside a protected call.
            jl_pop(handle, 1)
            if let failure { throw failure }
            position += 1
        }
        return items
    }

    /// The strings of the array at `list`; nil when it is not a table. An item that is not
    /// UTF-8 is left out and noted in `notText` as `key`.
    private func strings(ofListAt list: Int32, _ key: String, _ notText: inout NotText) -> [String]? {
        guard lua_type(handle, list) == LUA_TTABLE else { return nil }
        let list = lua_absindex(handle, list)
        let count = lua_rawlen(handle, list)
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        var position: lua_Integer = 1
        while position <= lua_Integer(count) {
            if lua_rawgeti(handle, list, position) == LUA_TSTRING {
                if let item = text(at: -1) {
                    strings.append(item)
                } else if notText.field == nil {
                    notText.field = (key, true)
                }
            }
            jl_pop(handle, 1)
            position += 1
        }
        return strings
    }

    /// The string at `index`, or nil when it is not one (a number is not converted) or is
    /// not UTF-8.
    private func text(at index: Int32) -> String? {
        guard lua_type(handle, index) == LUA_TSTRING else { return nil }
        var length = 0
        let bytes = lua_tolstring(handle, index, &length)
        return RuleValueReader.text(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// The string at `index`, or nil; a string that is not UTF-8 is noted in `notText` as `key`.
    private func text(at index: Int32, _ key: String, _ notText: inout NotText) -> String? {
        let value = text(at: index)
        if value == nil, lua_type(handle, index) == LUA_TSTRING, notText.field == nil { notText.field = (key, false) }
        return value
    }

    /// The integer at `index`, or nil when it is not an integer.
    private func integer(at index: Int32) -> Int? {
        guard lua_isinteger(handle, index) != 0 else { return nil }
        return Int(lua_tointegerx(handle, index, nil))
    }
}
