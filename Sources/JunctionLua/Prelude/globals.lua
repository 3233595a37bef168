-- The globals rules see, read-only, and the bundle's environment, whose reads reach them.
-- `load` compiles text only, in the rule's environment; `collectgarbage` is gone and
-- `tostring` shows no addresses: nothing tells a rule about the heap. `warn` is gone: it
-- writes to stderr.
--
-- Takes the host's functions, `trust`, and the tables of globals the other files made;
-- returns the bundle's environment, writable until it is sealed.

local host, trust = ...
local read_only, tostring = host.read_only, host.tostring
local error, type, next, rawset, setmetatable, load = error, type, next, rawset, setmetatable, load

local env  -- the bundle's environment, set below
local G = {
  assert = assert, error = error, ipairs = ipairs, pairs = host.ordered_pairs, select = select,
  tonumber = tonumber, tostring = host.tostring, type = type, rawequal = rawequal, rawlen = rawlen,
  rawget = rawget, getmetatable = getmetatable, _VERSION = _VERSION,
  print = host.print,
  -- The rule API's helpers (docs/rules.md).
  version = read_only({ compare = host.version_compare }),
  url = read_only({
    encode = host.url_encode, decode = host.url_decode, parse = host.url_parse, build = host.url_build,
  }),
  log = read_only({ info = host.log_info, warn = host.log_warn }),
  rollout = host.rollout,
  load = trust(function(chunk, name, mode, chunk_env)
    if type(chunk) ~= "string" then error("load: rules may load only source text given as a string", 2) end
    if mode ~= nil and mode ~= "t" then error("load: rules may load only text chunks (mode \"t\")", 2) end
    if chunk_env ~= nil then error("load: a loaded chunk always runs in the rule's own environment", 2) end
    return load(chunk, "=" .. (name and tostring(name) or "(load)"), "t", env)
  end),
}
for k = 3, select("#", ...) do
  for key, value in next, (select(k, ...)) do G[key] = value end
end
for _, f in next, G do if type(f) == "function" then trust(f) end end
G = read_only(G)

env = setmetatable({}, { __index = G })
rawset(env, "_G", env)
return env
