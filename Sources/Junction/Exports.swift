/// The façade re-exports the router's core — URIs, route tables, matching — so an app
/// imports one module: `import Junction`.
@_exported public import JunctionCore
