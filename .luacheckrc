-- luacheck's settings for the sandbox prelude: `luacheck Sources/JunctionLua/Prelude`.
files["Sources/JunctionLua/Prelude"] = { std = "lua54" }
-- Changing the standard libraries before they become read-only is what this file is for.
files["Sources/JunctionLua/Prelude/libraries.lua"] = { ignore = { "122" } }
