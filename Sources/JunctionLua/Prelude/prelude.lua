-- The sandbox's own Lua code, run once per state as trusted code before any rule
-- (SandboxPrelude.swift). This file runs the prelude's other files, each a chunk of its
-- own, in order: each takes the host's functions and what it needs from the files before
-- it, and returns what it makes. The functions they leave behind keep the originals they
-- wrap in upvalues no rule can reach (there is no `debug` library and no `string.dump`),
-- and read no globals: the global table is emptied last.
--
-- Returns the bundle's environment (writable while the bundle loads), `seal`, which
-- freezes that environment and everything reachable from it once loading is done, and
-- lets go of what only loading needed, and `reach`.

local host = ...
local parts = host.parts
local setmetatable, next, rawset = setmetatable, next, rawset

-- Functions of the sandbox itself: sealing does not walk into their upvalues. Only
-- sealing reads the set, and it ends it: from then on nothing is recorded.
local trusted = setmetatable({}, { __mode = "k" })
local function trust(f) if trusted then trusted[f] = true end; return f end
local function end_trust()
  local set = trusted
  trusted = nil
  return set
end

local protected_calls = parts.protected_calls(host, trust)
local rule_api, end_declaring = parts.rule_api(host, trust, host.verdict)
local libraries = parts.libraries(host, trust)
local metatables = parts.metatables(host, trust)
local env = parts.globals(host, trust, protected_calls, rule_api, libraries, metatables)
local seal = parts.sealing(host, trust, env, end_trust, end_declaring)

-- lauxlib makes the metatable of its buffers' boxes the first time a buffer outgrows the
-- C stack, and keeps it in the registry: make it now, so that no rule pays for it only
-- because it was the first (a rule's charges must not depend on earlier evaluations).
string.rep("x", 4096)

-- Nothing keeps using the real global table: empty it, so no path leads anywhere (the
-- host then replaces it in the registry with an empty table of no size).
local real = _G
local keys = {}
for k in next, real do keys[#keys + 1] = k end
for k = 1, #keys do rawset(real, keys[k], nil) end

-- Calls itself `depth` times. The host runs it once on each new evaluation thread, so
-- every thread starts owning the same call frames (ThreadWatch.swift): what a rule's calls
-- cost cannot depend on how deep an earlier evaluation went.
local function reach(depth)
  if depth > 0 then reach(depth - 1) end
end

return env, seal, reach
