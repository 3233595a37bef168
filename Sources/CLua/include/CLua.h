// The C boundary of Junction: Lua 5.4's headers plus one `jl_` shim for each
// function-like macro or variadic function that Swift cannot import or call.
// One line of logic each, no more; the Lua-facing code lives in
// Sources/JunctionLua/, in the files named *_capi.swift.
//
// The headers come from whichever Lua the package's trait names: the system's (`SystemLua`,
// the default) or the CLua54 package built from an official release (`PackagedLua`); see
// docs/apple-platforms.md. The shims stay here, so a Lua package carries Lua alone.
#ifndef JUNCTION_CLUA_SHIM_H
#define JUNCTION_CLUA_SHIM_H

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

// MARK: - The release

// "Lua 5.4.4": the release of the headers this target was compiled with (release.c), the
// library's own.
const char *jl_release(void);

// MARK: - Pseudo-indices

static inline int jl_registryindex(void) { return LUA_REGISTRYINDEX; }

static inline int jl_upvalueindex(int i) { return lua_upvalueindex(i); }

// MARK: - Calls

// Pops the function and its nargs arguments; pushes nresults results
// (all of them for LUA_MULTRET), or the error object when it returns non-zero.
static inline int jl_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}

// Unprotected: an error propagates to the enclosing protected call.
static inline void jl_call(lua_State *L, int nargs, int nresults) {
    lua_call(L, nargs, nresults);
}

// Loads Lua source text only; a binary chunk is a syntax error (mode "t").
// Pushes the compiled chunk, or the error message when it returns non-zero.
static inline int jl_loadtext(lua_State *L, const char *text, size_t size, const char *chunkname) {
    return luaL_loadbufferx(L, text, size, chunkname, "t");
}

// Loads a binary chunk only (mode "b"): for the host's own precompiled sandbox prelude,
// never for bundle code, which goes through jl_loadtext.
static inline int jl_loadbinary(lua_State *L, const char *bytes, size_t size, const char *chunkname) {
    return luaL_loadbufferx(L, bytes, size, chunkname, "b");
}

// MARK: - Reading values

// Converts a number in place to a string (and may raise); a string is returned as is.
static inline const char *jl_tostring(lua_State *L, int idx) { return lua_tostring(L, idx); }

static inline lua_Number jl_tonumber(lua_State *L, int idx) { return lua_tonumber(L, idx); }

static inline lua_Integer jl_tointeger(lua_State *L, int idx) { return lua_tointeger(L, idx); }

static inline int jl_isnil(lua_State *L, int idx) { return lua_isnil(L, idx); }

static inline int jl_isnone(lua_State *L, int idx) { return lua_isnone(L, idx); }

static inline int jl_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }

static inline int jl_istable(lua_State *L, int idx) { return lua_istable(L, idx); }

static inline int jl_isfunction(lua_State *L, int idx) { return lua_isfunction(L, idx); }

// Static storage; never raises.
static inline const char *jl_typename(lua_State *L, int idx) { return luaL_typename(L, idx); }

// Raises a Lua error when the argument is neither a string nor a number.
static inline const char *jl_checkstring(lua_State *L, int arg) { return luaL_checkstring(L, arg); }

// MARK: - Stack manipulation

static inline void jl_pop(lua_State *L, int n) { lua_pop(L, n); }

// Moves the top element to idx, shifting the elements above idx up.
static inline void jl_insert(lua_State *L, int idx) { lua_insert(L, idx); }

// Removes the element at idx, shifting the elements above it down.
static inline void jl_remove(lua_State *L, int idx) { lua_remove(L, idx); }

// Pops the top element into idx.
static inline void jl_replace(lua_State *L, int idx) { lua_replace(L, idx); }

// MARK: - Pushing values

// Allocates, so it may raise a memory error.
static inline void jl_newtable(lua_State *L) { lua_newtable(L); }

// A light C function: no allocation, never raises.
static inline void jl_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }

// Copies (or interns) the string, so it may raise a memory error.
static inline void jl_pushstring(lua_State *L, const char *s) { (void)lua_pushstring(L, s); }

// Reads the registry, so it never raises.
static inline void jl_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }

// MARK: - Host context

// LUA_EXTRASPACE (pointer-sized) bytes the host owns; new threads copy the main thread's.
static inline void *jl_getextraspace(lua_State *L) { return lua_getextraspace(L); }

// MARK: - Variadics

static inline int jl_gc(lua_State *L, int what, int arg) { return lua_gc(L, what, arg); }

// Switches the collector to generational mode with Lua's default parameters (lua_gc is
// variadic: LUA_GCGEN reads two more ints, 0 meaning "keep the current value").
static inline int jl_gc_generational(lua_State *L) { return lua_gc(L, LUA_GCGEN, 0, 0); }

// Switches to incremental collection (LUA_GCINC reads three more ints, 0 keeping each).
static inline int jl_gc_incremental(lua_State *L) { return lua_gc(L, LUA_GCINC, 0, 0, 0); }

// The heap size Lua accounts for, in bytes.
static inline size_t jl_gc_count_bytes(lua_State *L) {
    return (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB, 0);
}

// Raises msg as a plain string, with the caller's position prepended; never returns.
// The format is fixed so a message can never be read as one.
static inline int jl_error_string(lua_State *L, const char *msg) { return luaL_error(L, "%s", msg); }

#endif
