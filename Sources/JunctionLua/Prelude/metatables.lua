-- setmetatable and rawset for rules. A finalizer (`__gc`) would run rule code where no
-- budget stops it, at a time the collector chooses; a weak table (`__mode`) would tell a
-- rule when the collector ran, which depends on what earlier evaluations allocated. Lua
-- reads both from the metatable when the collector runs, so a metatable must not gain them
-- later either: `setmetatable` gives each metatable the guard as its own metatable, whose
-- `__newindex` refuses them (as `rawset` does), and which cannot be replaced. `rawset`
-- also refuses read-only tables, whose empty proxies it would otherwise fill.
--
-- Takes the host's functions and `trust`; returns the globals it makes.

local host, trust = ...
local is_readonly, raw_getmetatable = host.is_readonly, host.raw_getmetatable
local error, type, next, rawget, rawset, setmetatable = error, type, next, rawget, rawset, setmetatable

local unsafe_field = { __gc = true, __mode = true }  -- out of every rule's reach
local refuse_field = trust(function(k, level)
  local why = k == "__gc" and "__gc finalizers are not allowed in rules"
    or "weak tables (__mode) are not allowed in rules: when their entries go depends on the garbage collector"
  error("setmetatable: " .. why, level + 1)
end)
local metatable_guard = {
  __newindex = trust(function(mt, k, v)
    if unsafe_field[k] then refuse_field(k, 2) end
    rawset(mt, k, v)
  end),
  __metatable = false,
}
local check_metatable = trust(function(t, mt)
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

return {
  setmetatable = trust(function(t, mt)
    if type(mt) == "table" then check_metatable(t, mt) end
    return setmetatable(t, mt)
  end),
  rawset = trust(function(t, k, v)
    if is_readonly(t) then error("rawset: the table is read-only", 2) end
    if raw_getmetatable(t) == metatable_guard and unsafe_field[k] then refuse_field(k, 2) end
    return rawset(t, k, v)
  end),
}
