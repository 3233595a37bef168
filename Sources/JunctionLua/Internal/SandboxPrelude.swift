/// The sandbox's own Lua code: run once per state, as trusted code, before any rule.
/// States load it precompiled, without local-variable names (``PreludeChunk``).
///
/// It receives the host's functions, keeps the originals it wraps in upvalues no rule
/// can reach (there is no `debug` library and no `string.dump`), builds the globals rules
/// see, makes them read-only, and empties the real global table. It returns the bundle's
/// environment (writable while the bundle loads) and `seal`, which freezes that
/// environment and everything reachable from it once loading is done, and lets go of
/// what only loading needed.
///
/// Guards, and why each exists:
/// - `pcall`/`xpcall` re-raise once the instruction budget is tripped, so
///   `while true do pcall(function() while true do end end) end` ends, and once memory ran
///   out, so a rule cannot measure the heap by how much it can allocate; an error raised
///   in the sandbox's own code is shown at the rule's line, never the prelude's.
/// - `string.find/match/gmatch/gsub` are the host's (``PatternFunctions``), whose every
///   step is charged to the instruction budget: Lua's C matcher cannot be interrupted.
/// - `table.insert/remove/concat/sort` on tables with a metatable run in Lua (so
///   `__len`/`__index` tricks stay under the budget); on plain tables they call the C
///   originals, which ``ChargedCalls`` charged for their work before this chunk ran, as
///   it did `string.rep`, `table.move` and every other library function that loops in C.
/// - `setmetatable` refuses `__gc` and weak tables (`__mode`); `rawset` refuses read-only
///   tables; `load` compiles text only, in the rule's environment; `collectgarbage` is gone
///   and `tostring` shows no addresses: nothing tells a rule about the heap.
/// - `math.random`/`randomseed` are removed: a rule must decide the same way on every
///   device and in the CLI (use `rollout`). `warn` is removed: it writes to stderr.
enum SandboxPrelude {
    static let chunkName: StaticString = "=junction/sandbox"
    /// How Lua shows the chunk's name in messages: `junction/sandbox:LINE: …`.
    static let shownName: StaticString = "junction/sandbox:"

    static let source: StaticString = #"""
    local host = ...
    local stopped, upvalues, is_c_function = host.stopped, host.upvalues, host.is_c_function
    local freeze_in_place, is_readonly, raw_getmetatable = host.freeze_in_place, host.is_readonly, host.raw_getmetatable
    local read_only = host.read_only
    local OUT_OF_MEMORY = "not enough memory"  -- Lua's own message for a memory error
    local rule_position, stable_tostring = host.rule_position, host.tostring

    local error, type, select, tostring, next, rawget, rawlen, getmetatable, assert, ipairs =
          error, type, select, tostring, next, rawget, rawlen, getmetatable, assert, ipairs
    local rawset, setmetatable, pcall, xpcall, load =
          rawset, setmetatable, pcall, xpcall, load
    local string, table, math, utf8 = string, table, math, utf8
    local ssub, sformat = string.sub, string.format
    local insert, remove, concat, sort = table.insert, table.remove, table.concat, table.sort
    local metatable_guard, check_metatable  -- see "Metatables" below

    -- Functions of the sandbox itself: `seal` does not walk into their upvalues. Only
    -- sealing reads the set, and it drops the set when done: from then on nothing is recorded.
    local trusted = setmetatable({}, { __mode = "k" })
    local function trust(f) if trusted then trusted[f] = true end; return f end

    -- pcall / xpcall: once the budget is spent or memory ran out, nothing may catch the
    -- error (`stopped()` says which), or a rule could keep running, or measure the heap by
    -- how much it can allocate. An error raised in the sandbox's own code names the
    -- rule's line, not the prelude's.
    local checked = trust(function(ok, ...)
      local stop = stopped()
      if stop then error(stop, 0) end
      if not ok and ... == OUT_OF_MEMORY then error(OUT_OF_MEMORY, 0) end
      return ok, ...
    end)
    local safe_pcall = trust(function(f, ...) return checked(xpcall(f, rule_position, ...)) end)
    -- A budget error raised by the count hook runs the message handler while Lua has
    -- hooks switched off (until the next pcall boundary restores them): a rule's handler
    -- must not run then, or a loop in it would never be stopped.
    local safe_xpcall = trust(function(f, handler, ...)
      local guarded = trust(function(e)
        local stop = stopped()
        if stop then return stop end
        if e == OUT_OF_MEMORY then return e end
        return handler(rule_position(e))
      end)
      return checked(xpcall(f, guarded, ...))
    end)

    -- Pattern functions: the host's matcher, whose every step is charged to the budget
    -- (Lua's C matcher cannot be interrupted).
    string.find, string.match = trust(host.pattern_find), trust(host.pattern_match)
    string.gmatch, string.gsub = trust(host.pattern_gmatch), trust(host.pattern_gsub)
    string.dump = nil

    -- Table functions: the C originals (charged for the elements they move) take plain
    -- tables; a metatable's `__len`/`__index` would make their loops the rule's to size.
    -- Not a table at all: the C original says so, with its own message.
    local function plain(t) return type(t) ~= "table" or getmetatable(t) == nil end
    table.insert = trust(function(t, ...)
      if plain(t) then return insert(t, ...) end
      local count = select("#", ...)
      local e = #t + 1
      if count == 1 then t[e] = ...; return end
      if count ~= 2 then error("wrong number of arguments to 'insert'", 2) end
      local pos, v = ...
      if type(pos) ~= "number" or pos < 1 or pos > e then error("bad argument #2 to 'insert' (position out of bounds)", 2) end
      for i = e, pos + 1, -1 do t[i] = t[i - 1] end
      t[pos] = v
    end)
    table.remove = trust(function(t, pos)
      if plain(t) then return remove(t, pos) end
      local size = #t
      pos = pos or size
      if size + 1 == pos then local v = t[pos]; t[pos] = nil; return v end
      if size == 0 and (pos == 0 or pos == size) then return t[pos] end
      if type(pos) ~= "number" or pos < 1 or pos > size + 1 then error("bad argument #2 to 'remove' (position out of bounds)", 2) end
      local v = t[pos]
      for i = pos, size - 1 do t[i] = t[i + 1] end
      t[size] = nil
      return v
    end)
    table.concat = trust(function(t, sep, i, j)
      if plain(t) then return concat(t, sep, i, j) end
      local buffer = {}
      i, j = i or 1, j or #t
      for k = i, j do buffer[#buffer + 1] = t[k] end
      return concat(buffer, sep)
    end)
    table.sort = trust(function(t, less)
      if plain(t) then return sort(t, less) end
      local copy, size = {}, #t
      for k = 1, size do copy[k] = t[k] end
      sort(copy, less)
      for k = 1, size do t[k] = copy[k] end
    end)
    math.random, math.randomseed = nil, nil

    -- The rule API (docs/rules.md): declarations while the bundle loads, verdicts
    -- while rules run. Declarations are kept here, out of every rule's reach, and
    -- handed to the host by `seal`. What only loading needs (the functions that declare,
    -- what they gathered, `seal` and `trusted`) hangs on `declare`, `seal` and `trusted`
    -- alone: sealing drops `declare` and `trusted` and the host drops `seal`, so an
    -- engine does not keep that code for its whole life.
    local declarations = { redirects = {}, interceptors = {}, groups = {}, fallbacks = {} }
    local interceptor_names = {}
    local caller_position = host.caller_position
    local declare  -- the functions that declare, by name, until the bundle is sealed

    -- The function that declares `what`, called by the rule API's function of that name,
    -- which tail-calls it: so level 2 of its errors, and level 3 of `field`'s, is the rule.
    local function declaring(what)
      if not declare then error(what .. ": rules are declared while the bundle loads, not while they run", 3) end
      return declare[what]
    end
    local function field(spec, key, kind, what, required)
      local value = spec[key]
      if value == nil then
        if required then error(sformat("%s: missing %s (%s)", what, key, kind), 3) end
        return nil
      end
      if type(value) ~= kind then error(sformat("%s: %s must be a %s, not a %s", what, key, kind, type(value)), 3) end
      return value
    end
    local function on_error_of(spec, what)
      local policy = field(spec, "on_error", "string", what)
      if policy ~= nil and policy ~= "continue" and policy ~= "reject" then
        error(sformat("%s: on_error must be \"continue\" or \"reject\", not %q", what, policy), 3)
      end
      return policy
    end
    local function check_keys(spec, allowed, what)
      for key in next, spec do
        if not allowed[key] then
          error(sformat("%s: unknown field %s", what, tostring(key)), 3)
        end
      end
    end

    -- A verdict is a small table the host reads back as soon as the rule returns.
    local function verdict(fields) return fields end
    -- "file.lua:12", where the rule being loaded called a declaration.
    local function position()
      local where = caller_position()
      return ssub(where, 1, #where - 2)
    end

    local function declare_redirect(spec)
      check_keys(spec, { from = true, to = true, when = true, keep_query = true }, "redirect")
      local entry = {
        from = field(spec, "from", "string", "redirect", true),
        to = field(spec, "to", "string", "redirect", true),
        when = field(spec, "when", "function", "redirect"),
        keep_query = field(spec, "keep_query", "boolean", "redirect"),
        at = position(),
      }
      declarations.redirects[#declarations.redirects + 1] = entry
    end
    local redirect = trust(function(target, params)
      if type(target) == "table" then return declaring("redirect")(target) end
      if type(target) ~= "string" then
        error("redirect(url [, params]) takes the URL to open instead, or redirect{ from = ..., to = ... } declares a redirect", 2)
      end
      if params ~= nil and type(params) ~= "table" and type(params) ~= "userdata" then
        error("redirect: params must be a table", 2)
      end
      return verdict({ verdict = "redirect", url = target, params = params })
    end)
    local function declare_interceptor(spec)
      if type(spec) ~= "table" then error("interceptor{ name = ..., route = ... | routes = {...} | all = true, run = function(req, ctx) ... end }", 2) end
      check_keys(spec, { name = true, route = true, routes = true, all = true, priority = true, on_error = true, run = true }, "interceptor")
      local name = field(spec, "name", "string", "interceptor", true)
      if interceptor_names[name] then error(sformat("interceptor %q is declared twice; names are unique", name), 2) end
      interceptor_names[name] = true
      local what = sformat("interceptor %q", name)
      local route, routes, all = field(spec, "route", "string", what), field(spec, "routes", "table", what), field(spec, "all", "boolean", what)
      local scopes = (route and 1 or 0) + (routes and 1 or 0) + (all and 1 or 0)
      if scopes ~= 1 then error(what .. ": give exactly one of route = PATTERN, routes = { PATTERN, ... } or all = true", 2) end
      local patterns
      if routes then
        patterns = {}
        for i = 1, #routes do
          if type(routes[i]) ~= "string" then error(what .. ": routes must list patterns (strings)", 2) end
          patterns[i] = routes[i]
        end
      end
      local priority = field(spec, "priority", "number", what) or 0
      if priority ~= priority // 1 then error(what .. ": priority must be a whole number", 2) end
      declarations.interceptors[#declarations.interceptors + 1] = {
        name = name, route = route, routes = patterns, all = all or false, priority = priority // 1,
        on_error = on_error_of(spec, what), run = field(spec, "run", "function", what, true), at = position(),
      }
    end
    local function declare_group(name, policy)
      if type(name) ~= "string" or type(policy) ~= "function" then
        error("group(name, function(req, ctx) ... end) declares the policy of a route group", 2)
      end
      for _, existing in next, declarations.groups do
        if existing.name == name then error(sformat("group %q already has a policy (at %s)", name, existing.at), 2) end
      end
      declarations.groups[#declarations.groups + 1] = { name = name, run = policy, at = position() }
    end
    local function declare_fallback(policy)
      if type(policy) ~= "function" then error("fallback(function(req, ctx) ... end) handles URLs no route matches", 2) end
      declarations.fallbacks[#declarations.fallbacks + 1] = { run = policy, at = position() }
    end
    declare = { redirect = declare_redirect, interceptor = declare_interceptor, group = declare_group, fallback = declare_fallback }
    local interceptor = trust(function(spec) return declaring("interceptor")(spec) end)
    local group = trust(function(name, policy) return declaring("group")(name, policy) end)
    local fallback = trust(function(policy) return declaring("fallback")(policy) end)

    -- The libraries become read-only. Each table becomes the backing of a new, empty proxy
    -- (freezing it in place would leave its emptied hash part allocated in every state), so
    -- each reference to it moves to the proxy: the locals here, and the string metatable
    -- through which `("x"):upper()` reaches the string table, which no rule may see or
    -- change. The host drops the registry's own references after this chunk.
    for _, lib in next, { string, table, math, utf8 } do
      for _, f in next, lib do if type(f) == "function" then trust(f) end end
    end
    string, table, math, utf8 = read_only(string), read_only(table), read_only(math), read_only(utf8)
    local string_metatable = getmetatable("")
    rawset(string_metatable, "__index", string)
    rawset(string_metatable, "__metatable", false)

    -- Metatables. A finalizer (`__gc`) would run rule code where no budget stops it, at a
    -- time the collector chooses; a weak table (`__mode`) would tell a rule when the
    -- collector ran, which depends on what earlier evaluations allocated. Lua reads both
    -- from the metatable when the collector runs, so a metatable must not gain them later
    -- either: `setmetatable` gives each metatable the guard as its own metatable, whose
    -- `__newindex` refuses them (as the `rawset` above does), and which cannot be replaced.
    local unsafe_field = { __gc = true, __mode = true }  -- out of every rule's reach
    local refuse_field = trust(function(k, level)
      local why = k == "__gc" and "__gc finalizers are not allowed in rules"
        or "weak tables (__mode) are not allowed in rules: when their entries go depends on the garbage collector"
      error("setmetatable: " .. why, level + 1)
    end)
    metatable_guard = {
      __newindex = trust(function(mt, k, v)
        if unsafe_field[k] then refuse_field(k, 2) end
        rawset(mt, k, v)
      end),
      __metatable = false,
    }
    check_metatable = trust(function(t, mt)
      if t == mt then error("setmetatable: a table cannot be its own metatable in rules", 3) end
      for k in next, unsafe_field do
        if rawget(mt, k) ~= nil then refuse_field(k, 3) end
      end
      if is_readonly(mt) then return end  -- nothing can be added to it
      local own = raw_getmetatable(mt)
      if own == metatable_guard then return end
      if own ~= nil then
        error("setmetatable: a metatable with a metatable of its own cannot be used in rules", 3)
      end
      setmetatable(mt, metatable_guard)
    end)

    -- The globals rules see, read-only in the same way.
    local env  -- the bundle's environment, set below
    local G = {
      assert = assert, error = error, ipairs = ipairs, pairs = host.ordered_pairs, select = select,
      tonumber = tonumber, tostring = stable_tostring, type = type, rawequal = rawequal, rawlen = rawlen,
      rawget = rawget, getmetatable = getmetatable, _VERSION = _VERSION,
      string = string, table = table, math = math, utf8 = utf8,
      print = host.print, pcall = safe_pcall, xpcall = safe_xpcall,
      -- The rule API's helpers (docs/rules.md).
      version = read_only({ compare = host.version_compare }),
      url = read_only({ encode = host.url_encode, decode = host.url_decode, parse = host.url_parse, build = host.url_build }),
      log = read_only({ info = host.log_info, warn = host.log_warn }),
      rollout = host.rollout,
      redirect = redirect, interceptor = interceptor, group = group, fallback = fallback,
      reject = trust(function(reason, code)
        if type(reason) ~= "string" then error("reject(reason [, code]) takes the reason as a string", 2) end
        if code ~= nil and (math.type(code) ~= "integer" or code < 100 or code > 999) then
          error("reject: code must be a whole number from 100 to 999, such as 403", 2)
        end
        return verdict({ verdict = "reject", reason = reason, code = code })
      end),
      gate = trust(function(url, options)
        if type(url) ~= "string" then error("gate(url [, { resume = true }]) takes the URL to open first, such as the login page", 2) end
        if options ~= nil and type(options) ~= "table" then error("gate: options must be a table such as { resume = true }", 2) end
        local resume = true
        if options ~= nil and options.resume ~= nil then resume = options.resume == true end
        return verdict({ verdict = "gate", url = url, resume = resume })
      end),
      rewrite = trust(function(spec)
        if type(spec) ~= "table" or (type(spec.params) ~= "table" and type(spec.params) ~= "userdata") then
          error("rewrite{ params = { name = value, ... } } changes parameters and continues", 2)
        end
        return verdict({ verdict = "rewrite", params = spec.params })
      end),
      respond = trust(function(value) return verdict({ verdict = "respond", value = value }) end),
      -- `next()` with no arguments is the verdict "this route declines"; with a table it
      -- is Lua's own `next`, which would fail without one.
      next = trust(function(...)
        if select("#", ...) == 0 then return verdict({ verdict = "next" }) end
        return next(...)
      end),
      setmetatable = trust(function(t, mt)
        if type(mt) == "table" then check_metatable(t, mt) end
        return setmetatable(t, mt)
      end),
      rawset = trust(function(t, k, v)
        if is_readonly(t) then error("rawset: the table is read-only", 2) end
        if raw_getmetatable(t) == metatable_guard and unsafe_field[k] then refuse_field(k, 2) end
        return rawset(t, k, v)
      end),
      load = trust(function(chunk, name, mode, chunk_env)
        if type(chunk) ~= "string" then error("load: rules may load only source text given as a string", 2) end
        if mode ~= nil and mode ~= "t" then error("load: rules may load only text chunks (mode \"t\")", 2) end
        if chunk_env ~= nil then error("load: a loaded chunk always runs in the rule's own environment", 2) end
        return load(chunk, "=" .. (name and tostring(name) or "(load)"), "t", env)
      end),
    }
    for _, f in next, G do if type(f) == "function" then trust(f) end end
    G = read_only(G)

    -- Nothing keeps using the real global table: empty it, so no path leads anywhere (the
    -- host then replaces it in the registry with an empty table of no size).
    local real = _G
    local keys = {}
    for k in next, real do keys[#keys + 1] = k end
    for k = 1, #keys do rawset(real, keys[k], nil) end

    -- The bundle's environment: its globals during loading, then sealed.
    env = setmetatable({}, { __index = G })
    rawset(env, "_G", env)

    -- Freezes `value` and everything reachable from it: tables (keys and values) and
    -- the upvalues of functions that are not the sandbox's own. A table with a
    -- metatable of the bundle's cannot be frozen without breaking it, so it is refused.
    -- Only tables and functions can hold anything to seal.
    local function needs_sealing(value)
      local t = type(value)
      return t == "table" or t == "function"
    end

    local function seal_value(value, seen, path)
      local t = type(value)
      if t == "table" then
        if seen[value] or is_readonly(value) then return end
        seen[value] = true
        if raw_getmetatable(value) ~= nil then
          error(sformat("%s: a table with a metatable cannot outlive the bundle's loading "
            .. "(rules would share and change it between evaluations); create it inside the rule function", path), 0)
        end
        local items = {}
        for k, v in next, value do items[#items + 1] = k; items[#items + 1] = v end
        freeze_in_place(value)
        for k = 1, #items, 2 do
          local key, item = items[k], items[k + 1]
          if needs_sealing(key) then seal_value(key, seen, path) end
          -- Names are built only for what can hold more: one string per scalar field
          -- would fill the string table of a bundle with a large configuration table.
          if needs_sealing(item) then
            local name = type(key) == "string" and (path .. "." .. key) or (path .. "[" .. tostring(key) .. "]")
            seal_value(item, seen, name)
          end
        end
      elseif t == "function" then
        if seen[value] or trusted[value] then return end
        seen[value] = true
        if is_c_function(value) then
          -- No bytecode to inspect. Without upvalues it keeps nothing (`ipairs`'s
          -- stepper); with them it keeps state that every evaluation would share and
          -- change (an iterator from `string.gmatch` or `pairs`).
          if select("#", upvalues(value)) > 0 then
            error(sformat("%s: an iterator or other function with state of its own, made while the bundle loads, "
              .. "cannot outlive the loading (rules would share it and change it between evaluations); "
              .. "create it inside the rule function", path), 0)
          end
          return
        end
        seen.functions[#seen.functions + 1] = value
        local function each(...)
          for k = 1, select("#", ...) do
            local upvalue = (select(k, ...))
            if needs_sealing(upvalue) then seal_value(upvalue, seen, path .. " (upvalue " .. k .. ")") end
          end
        end
        each(upvalues(value))
      end
    end
    -- Seals the environment; returns the bundle's global functions, their names, every
    -- function of the bundle reachable from it (for the host to inspect), and the
    -- declarations, sealed too. Runs once: the host releases it afterwards.
    local seal = trust(function()
      declare = nil
      local seen = { [env] = true, functions = {} }
      local items, functions, names = {}, {}, {}
      for k, v in next, env do items[#items + 1] = k; items[#items + 1] = v end
      freeze_in_place(env)  -- keeps its metatable on the backing: reads still reach G
      for k = 1, #items, 2 do
        local name, value = items[k], items[k + 1]
        seal_value(value, seen, tostring(name))
        if type(name) == "string" and type(value) == "function" then
          functions[#functions + 1], names[#names + 1] = value, name
        end
      end
      -- For the host: a plain summary of the declarations, and every declared function
      -- in one array that the summary's `run`/`when` fields index.
      local callables, summary = {}, { redirects = {}, interceptors = {}, groups = {}, fallbacks = {} }
      local function callable(f, at)
        seal_value(f, seen, at)
        callables[#callables + 1] = f
        return #callables
      end
      for i, d in ipairs(declarations.redirects) do
        summary.redirects[i] = { from = d.from, to = d.to, keep_query = d.keep_query == true, at = d.at,
                                 when = d.when and callable(d.when, d.at) or nil }
      end
      for i, d in ipairs(declarations.interceptors) do
        summary.interceptors[i] = { name = d.name, route = d.route, routes = d.routes, all = d.all, priority = d.priority,
                                    on_error = d.on_error, at = d.at, run = callable(d.run, d.at) }
      end
      for i, d in ipairs(declarations.groups) do
        summary.groups[i] = { name = d.name, at = d.at, run = callable(d.run, d.at) }
      end
      for i, d in ipairs(declarations.fallbacks) do
        summary.fallbacks[i] = { at = d.at, run = callable(d.run, d.at) }
      end
      trusted = nil
      return functions, names, seen.functions, summary, callables
    end)

    return env, seal
    """#
}
