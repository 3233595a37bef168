-- pcall and xpcall for rules. Once the instruction budget is spent or memory ran out,
-- nothing may catch the error (`stopped()` says which), or a rule could keep running, or
-- measure the heap by how much it can allocate. An error raised in the sandbox's own code
-- names the rule's line, not the prelude's (`rule_position`).
--
-- Takes the host's functions and `trust`; returns the globals it makes.

local host, trust = ...
local stopped, rule_position = host.stopped, host.rule_position
local error, xpcall = error, xpcall
local OUT_OF_MEMORY = "not enough memory"  -- Lua's own message for a memory error

local checked = trust(function(ok, ...)
  local stop = stopped()
  if stop then error(stop, 0) end
  if not ok and ... == OUT_OF_MEMORY then error(OUT_OF_MEMORY, 0) end
  return ok, ...
end)

local safe_pcall = trust(function(f, ...) return checked(xpcall(f, rule_position, ...)) end)

-- A budget error raised by the count hook runs the message handler while Lua has hooks
-- switched off (until the next pcall boundary restores them): a rule's handler must not
-- run then, or a loop in it would never be stopped.
local safe_xpcall = trust(function(f, handler, ...)
  local guarded = trust(function(e)
    local stop = stopped()
    if stop then return stop end
    if e == OUT_OF_MEMORY then return e end
    return handler(rule_position(e))
  end)
  return checked(xpcall(f, guarded, ...))
end)

return { pcall = safe_pcall, xpcall = safe_xpcall }
