// The system Lua 5.4, as the benchmarks' plain-Lua peer uses it: the stock C API on a
// state of its own, without Junction's sandbox. One `pl_` shim per macro Swift cannot
// import; nothing else.
#ifndef JUNCTION_BENCH_CLUAPEER_SHIM_H
#define JUNCTION_BENCH_CLUAPEER_SHIM_H

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

static inline int pl_registryindex(void) { return LUA_REGISTRYINDEX; }

static inline int pl_pcall(lua_State *L, int nargs, int nresults) { return lua_pcall(L, nargs, nresults, 0); }

static inline void pl_pop(lua_State *L, int n) { lua_pop(L, n); }

static inline int pl_loadtext(lua_State *L, const char *text, size_t size, const char *chunkname) {
    return luaL_loadbufferx(L, text, size, chunkname, "t");
}

#endif
