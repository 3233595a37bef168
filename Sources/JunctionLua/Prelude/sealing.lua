-- Sealing, once the bundle has loaded: freezes the bundle's environment and everything
-- reachable from it, tables (keys and values) and the upvalues of functions that are not
-- the sandbox's own, so no evaluation can change what the next one sees. A table with a
-- metatable of the bundle's cannot be frozen without breaking it, so it is refused, and
-- so is a C function with state of its own.
--
-- Takes the host's functions, `trust`, the environment, `end_trust` and `end_declaring`;
-- returns `seal`.

local host, trust, env, end_trust, end_declaring = ...
local upvalues, is_c_function = host.upvalues, host.is_c_function
local freeze_in_place, is_readonly, raw_getmetatable = host.freeze_in_place, host.is_readonly, host.raw_getmetatable
local tostring = host.tostring
local error, type, select, next, ipairs = error, type, select, next, ipairs
local sformat = string.format
local trusted  -- the sandbox's own functions, whose upvalues are not the bundle's: set by `seal`

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
      -- No bytecode to inspect. Without upvalues it keeps nothing (`ipairs`'s stepper);
      -- with them it keeps state that every evaluation would share and change (an
      -- iterator from `string.gmatch` or `pairs`).
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
return trust(function()
  local declarations = end_declaring()
  trusted = end_trust()
  local seen = { [env] = true, functions = {} }
  local items, functions, names = {}, {}, {}
  for k, v in next, env do items[#items + 1] = k; items[#items + 1] = v end
  freeze_in_place(env)  -- keeps its metatable on the backing: reads still reach the globals
  for k = 1, #items, 2 do
    local name, value = items[k], items[k + 1]
    seal_value(value, seen, tostring(name))
    if type(name) == "string" and type(value) == "function" then
      functions[#functions + 1], names[#names + 1] = value, name
    end
  end
  -- For the host: a plain summary of the declarations, and every declared function in
  -- one array that the summary's `run`/`when` fields index.
  local callables, summary = {}, { redirects = {}, interceptors = {}, groups = {}, fallbacks = {} }
  local function callable(f, at)
    seal_value(f, seen, at)
    callables[#callables + 1] = f
    return #callables
  end
  for i, d in ipairs(declarations.redirects) do
    summary.redirects[i] = { from = d.from, to = d.to, keep_query = d.keep_query == true, on_error = d.on_error,
                             at = d.at, when = d.when and callable(d.when, d.at) or nil }
  end
  for i, d in ipairs(declarations.interceptors) do
    summary.interceptors[i] = { name = d.name, route = d.route, routes = d.routes, pattern = d.pattern,
                                patterns = d.patterns, all = d.all, priority = d.priority, on_error = d.on_error,
                                at = d.at, run = callable(d.run, d.at) }
  end
  for i, d in ipairs(declarations.groups) do
    summary.groups[i] = { name = d.name, at = d.at, run = callable(d.run, d.at) }
  end
  for i, d in ipairs(declarations.fallbacks) do
    summary.fallbacks[i] = { at = d.at, run = callable(d.run, d.at) }
  end
  return functions, names, seen.functions, summary, callables
end)
