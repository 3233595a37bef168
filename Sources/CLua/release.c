// The one shim with a body outside the header: compiled against the Lua headers this
// package was built with, so `jl_release` names the release the rules really run on.
#include "CLua.h"

const char *jl_release(void) { return LUA_RELEASE; }
