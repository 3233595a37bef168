// Lua 5.4 as the system installs it (Debian: liblua5.4-dev; pkg-config lua5.4), for the
// `SystemLua` trait. The `PackagedLua` trait takes the same headers from the CLua54 package
// that scripts/lua-package builds from an official release tarball.
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
