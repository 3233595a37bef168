-- The standard libraries rules see: string, table, math and utf8, changed where their C
-- code could run unbounded or tell a rule something about the device, then read-only.
--
-- - string.find/match/gmatch/gsub are the host's matcher (PatternFunctions), whose every
--   step is charged to the instruction budget: Lua's C matcher cannot be interrupted.
-- - table.insert/remove/concat/sort on tables with a metatable run here in Lua, so
--   `__len`/`__index` tricks stay under the budget; on plain tables they call the C
--   originals, which ChargedCalls charged for their work before the prelude ran, as it did
--   string.rep, table.move and every other library function that loops in C.
-- - string.dump is gone (no bytecode in or out of rules), and so are math.random and
--   math.randomseed: a rule must decide the same way on every device and in the CLI (it
--   has `rollout`).
--
-- Takes the host's functions and `trust`; returns the globals it makes.

local host, trust = ...
local read_only = host.read_only
local error, type, select, getmetatable, next, rawset = error, type, select, getmetatable, next, rawset
local string, table, math, utf8 = string, table, math, utf8
local insert, remove, concat, sort = table.insert, table.remove, table.concat, table.sort

string.find, string.match = trust(host.pattern_find), trust(host.pattern_match)
string.gmatch, string.gsub = trust(host.pattern_gmatch), trust(host.pattern_gsub)
string.dump = nil

-- The C originals (charged for the elements they move) take plain tables; a metatable's
-- `__len`/`__index` would make their loops the rule's to size. Not a table at all: the C
-- original says so, with its own message.
local function plain(t) return type(t) ~= "table" or getmetatable(t) == nil end
table.insert = trust(function(t, ...)
  if plain(t) then return insert(t, ...) end
  local count = select("#", ...)
  local e = #t + 1
  if count == 1 then t[e] = ...; return end
  if count ~= 2 then error("wrong number of arguments to 'insert'", 2) end
  local pos, v = ...
  if type(pos) ~= "number" or pos < 1 or pos > e then
    error("bad argument #2 to 'insert' (position out of bounds)", 2)
  end
  for i = e, pos + 1, -1 do t[i] = t[i - 1] end
  t[pos] = v
end)
table.remove = trust(function(t, pos)
  if plain(t) then return remove(t, pos) end
  local size = #t
  pos = pos or size
  if size + 1 == pos then local v = t[pos]; t[pos] = nil; return v end
  if size == 0 and (pos == 0 or pos == size) then return t[pos] end
  if type(pos) ~= "number" or pos < 1 or pos > size + 1 then
    error("bad argument #2 to 'remove' (position out of bounds)", 2)
  end
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

-- Each table becomes the backing of a new, empty, read-only proxy (freezing it in place
-- would leave its emptied hash part allocated in every state), so each reference to it
-- moves to the proxy: the globals rules see, and the string metatable through which
-- `("x"):upper()` reaches the string table, which no rule may see or change. The host
-- drops the registry's own references once the prelude has run.
for _, lib in next, { string, table, math, utf8 } do
  for _, f in next, lib do if type(f) == "function" then trust(f) end end
end
string, table, math, utf8 = read_only(string), read_only(table), read_only(math), read_only(utf8)
local string_metatable = getmetatable("")
rawset(string_metatable, "__index", string)
rawset(string_metatable, "__metatable", false)

return { string = string, table = table, math = math, utf8 = utf8 }
