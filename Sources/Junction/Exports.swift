/// The façade re-exports the router's core — URIs, route tables, matching, requests and
/// decisions — and the rule side — bundles, their engines and errors — so an app imports
/// one module: `import Junction`. No Lua type is public in either.
@_exported public import JunctionCore
@_exported public import JunctionLua
