/// `import JunctionShipping` is one import for everything a device uses: the router
/// (`Junction`, which brings URIs, decisions and bundles) and the artifact's keys and
/// keyring (`JunctionArtifact`: `Keyring`, `KeyFile`, `VerificationKey`).
@_exported public import Junction
@_exported public import JunctionArtifact
