-- The rule API (docs/rules.md): declarations while the bundle loads, verdicts while rules
-- run. Declarations are kept here, out of every rule's reach, and handed to sealing by
-- `end_declaring`. What only loading needs (the functions that declare and what they
-- gathered) hangs on `declare` and `end_declaring` alone: `end_declaring` drops `declare`,
-- and the host drops `seal`, which holds `end_declaring`, so an engine does not keep that
-- code for its whole life.
--
-- Takes the host's functions, `trust`, and the names of a verdict table's fields and kinds,
-- which the host spells (VerdictTable.swift) and reads back. Returns the globals it makes,
-- and `end_declaring`.

local host, trust, names = ...
local caller_position, tostring = host.caller_position, host.tostring
local error, type, select, next = error, type, select, next
local ssub, sformat, math_type, math_tointeger = string.sub, string.format, math.type, math.tointeger

-- The host's spelling of each name a verdict table has.
local function spelled(handle)
  local spelling = names[handle]
  if type(spelling) ~= "string" then error("the host gives no verdict name for " .. handle, 2) end
  return spelling
end
local KIND, URL, PARAMS, REASON = spelled("kind"), spelled("url"), spelled("params"), spelled("reason")
local CODE, RESUME, VALUE = spelled("code"), spelled("resume"), spelled("value")
local KEEP_QUERY = spelled("keep_query")
local REDIRECT, REJECT, GATE = spelled("redirect"), spelled("reject"), spelled("gate")
local REWRITE, NEXT, RESPOND = spelled("rewrite"), spelled("next"), spelled("respond")

local declarations = { redirects = {}, interceptors = {}, groups = {}, fallbacks = {} }
local interceptor_names = {}
local declare  -- the functions that declare, by name, until the bundle is sealed

-- The function that declares `what`, called by the rule API's function of that name,
-- which tail-calls it: so level 2 of its errors, and level 3 of `field`'s, is the rule.
local function declaring(what)
  if not declare then error(what .. ": rules are declared while the bundle loads, not while they run", 3) end
  return declare[what]
end
-- What errors call a declaration: `what`, or `what "name"` when it has a name — formatted
-- only for an error, as loading a bundle declares hundreds and fails on none.
local function described(what, name)
  if name == nil then return what end
  return sformat("%s %q", what, name)
end
local function field(spec, key, kind, what, required, name)
  local value = spec[key]
  if value == nil then
    if required then error(sformat("%s: missing %s (%s)", described(what, name), key, kind), 3) end
    return nil
  end
  if type(value) ~= kind then
    error(sformat("%s: %s must be a %s, not a %s", described(what, name), key, kind, type(value)), 3)
  end
  return value
end
local function on_error_of(spec, what, name)
  local policy = field(spec, "on_error", "string", what, false, name)
  if policy ~= nil and policy ~= "continue" and policy ~= "reject" then
    error(sformat("%s: on_error must be \"continue\" or \"reject\", not %q", described(what, name), policy), 3)
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

-- "file.lua:12", where the rule being loaded called a declaration.
local function position()
  local where = caller_position()
  return ssub(where, 1, #where - 2)
end

-- The fields each declaration takes: made once, not at every declaration.
local REDIRECT_FIELDS = { from = true, to = true, when = true, keep_query = true, on_error = true }
local INTERCEPTOR_FIELDS = {
  name = true, route = true, routes = true, pattern = true, patterns = true, all = true, priority = true,
  on_error = true, run = true,
}
local function declare_redirect(spec)
  check_keys(spec, REDIRECT_FIELDS, "redirect")
  local entry = {
    from = field(spec, "from", "string", "redirect", true),
    to = field(spec, "to", "string", "redirect", true),
    when = field(spec, "when", "function", "redirect"),
    keep_query = field(spec, "keep_query", "boolean", "redirect"),
    on_error = on_error_of(spec, "redirect"),
    at = position(),
  }
  declarations.redirects[#declarations.redirects + 1] = entry
end
-- A list of strings given as `key = { ... }`: its items, checked, in order.
local function strings(list, key, items, what, name)
  local copy = {}
  for i = 1, #list do
    if type(list[i]) ~= "string" then
      error(sformat("%s: %s must list %s (strings)", described(what, name), key, items), 3)
    end
    copy[i] = list[i]
  end
  if #copy == 0 then error(sformat("%s: %s lists no %s", described(what, name), key, items), 3) end
  return copy
end
local function declare_interceptor(spec)
  if type(spec) ~= "table" then
    error("interceptor{ name = ..., route = NAME | routes = {...} | pattern = PATTERN | all = true, "
      .. "run = function(req, ctx) ... end }", 2)
  end
  check_keys(spec, INTERCEPTOR_FIELDS, "interceptor")
  local name = field(spec, "name", "string", "interceptor", true)
  if interceptor_names[name] then error(sformat("interceptor %q is declared twice; names are unique", name), 2) end
  interceptor_names[name] = true
  local what = "interceptor"
  local route = field(spec, "route", "string", what, false, name)
  local routes = field(spec, "routes", "table", what, false, name)
  local pattern = field(spec, "pattern", "string", what, false, name)
  local patterns = field(spec, "patterns", "table", what, false, name)
  local all = field(spec, "all", "boolean", what, false, name)
  if all == false then
    error(described(what, name) .. ": all = false means nothing; leave it out, or give all = true", 2)
  end
  local scopes = (route and 1 or 0) + (routes and 1 or 0) + (pattern and 1 or 0) + (patterns and 1 or 0)
    + (all and 1 or 0)
  if scopes ~= 1 then
    error(described(what, name) .. ": give exactly one of route = NAME, routes = { NAME, ... }, pattern = PATTERN, "
      .. "patterns = { PATTERN, ... } or all = true", 2)
  end
  -- An integer: `2.0` is 2, as a float it was read as no priority at all.
  local priority = math_tointeger(field(spec, "priority", "number", what, false, name) or 0)
  if priority == nil then
    error(described(what, name) .. ": priority must be a whole number from -2^63 to 2^63 - 1", 2)
  end
  declarations.interceptors[#declarations.interceptors + 1] = {
    name = name, route = route, routes = routes and strings(routes, "routes", "route names", what, name),
    pattern = pattern, patterns = patterns and strings(patterns, "patterns", "URL patterns", what, name),
    all = all or false, priority = priority,
    on_error = on_error_of(spec, what, name), run = field(spec, "run", "function", what, true, name),
    at = position(),
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
declare = {
  redirect = declare_redirect, interceptor = declare_interceptor, group = declare_group, fallback = declare_fallback,
}

-- Ends declaring, once the bundle has loaded: returns what was declared.
local function end_declaring()
  declare = nil
  return declarations
end

-- A redirect verdict's options table: whether it keeps the query. Every key must be an
-- option, of the option's type.
local function redirect_options(options)
  for key, value in next, options do
    if key ~= "keep_query" then
      error(sformat("redirect: unknown option %s; the options are { keep_query = true }", tostring(key)), 3)
    end
    if type(value) ~= "boolean" then error("redirect: keep_query must be true or false, not a " .. type(value), 3) end
  end
  return options.keep_query or nil
end

-- Each verdict is a small table the host reads back as soon as the rule returns.
return {
  -- redirect(url), redirect(url, params), redirect(url, params, options), and
  -- redirect(url, options) when the second argument is a table of options only. A table
  -- that mixes an option with params is an error, not a guess.
  redirect = trust(function(target, params, options)
    if type(target) == "table" then return declaring("redirect")(target) end
    if type(target) ~= "string" then
      error("redirect(url [, params] [, { keep_query = true }]) takes the URL to open instead, "
        .. "or redirect{ from = ..., to = ... } declares a redirect", 2)
    end
    local keep_query
    if params ~= nil then
      local kind = type(params)
      if kind == "table" then
        if options == nil and params.keep_query ~= nil then
          -- Options in place of params: only if every key is one.
          for key in next, params do
            if key ~= "keep_query" then
              error("redirect: the table mixes keep_query with params; give them apart: "
                .. "redirect(url, params, { keep_query = true })", 2)
            end
          end
          keep_query, params = redirect_options(params), nil
        end
      elseif kind ~= "userdata" then
        error("redirect: params must be a table", 2)
      end
    end
    if options ~= nil then
      if type(options) ~= "table" then error("redirect: options must be a table such as { keep_query = true }", 2) end
      keep_query = redirect_options(options)
    end
    return { [KIND] = REDIRECT, [URL] = target, [PARAMS] = params, [KEEP_QUERY] = keep_query }
  end),
  interceptor = trust(function(spec) return declaring("interceptor")(spec) end),
  group = trust(function(name, policy) return declaring("group")(name, policy) end),
  fallback = trust(function(policy) return declaring("fallback")(policy) end),
  reject = trust(function(reason, code)
    if type(reason) ~= "string" then error("reject(reason [, code]) takes the reason as a string", 2) end
    if code ~= nil and (math_type(code) ~= "integer" or code < 100 or code > 999) then
      error("reject: code must be a whole number from 100 to 999, such as 403", 2)
    end
    return { [KIND] = REJECT, [REASON] = reason, [CODE] = code }
  end),
  gate = trust(function(url, options)
    if type(url) ~= "string" then
      error("gate(url [, { resume = true }]) takes the URL to open first, such as the login page", 2)
    end
    if options ~= nil and type(options) ~= "table" then
      error("gate: options must be a table such as { resume = true }", 2)
    end
    local resume = true
    if options ~= nil and options.resume ~= nil then resume = options.resume == true end
    return { [KIND] = GATE, [URL] = url, [RESUME] = resume }
  end),
  rewrite = trust(function(spec)
    if type(spec) ~= "table" or (type(spec.params) ~= "table" and type(spec.params) ~= "userdata") then
      error("rewrite{ params = { name = value, ... } } changes parameters and continues", 2)
    end
    return { [KIND] = REWRITE, [PARAMS] = spec.params }
  end),
  respond = trust(function(value) return { [KIND] = RESPOND, [VALUE] = value } end),
  -- `next()` with no arguments is the verdict "this route declines"; with a table it is
  -- Lua's own `next`, which would fail without one.
  next = trust(function(...)
    if select("#", ...) == 0 then return { [KIND] = NEXT } end
    return next(...)
  end),
}, end_declaring
