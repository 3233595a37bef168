// The C boundary of Junction's YAML reading: the system libyaml's header, read through
// its event API. libyaml has no function-like macros that the reader needs, so there
// are no shims yet; a `jy_` one goes here if one is ever needed. The only Swift file
// that imports this module is Sources/JunctionCore/Internal/YAMLComposer.swift.
#ifndef JUNCTION_CLIBYAML_SHIM_H
#define JUNCTION_CLIBYAML_SHIM_H

#include <yaml.h>

#endif
