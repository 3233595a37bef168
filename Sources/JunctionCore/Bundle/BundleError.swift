/// A bundle that cannot be used, with every problem found, each at its `FILE:LINE:COLUMN`.
public struct BundleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A bundle for a newer release of the app: its manifest's `minimum_host_version` is
    /// above the app's version (``BundleError/hostTooOld``).
    public struct HostTooOld: Sendable, Hashable {
        /// The manifest's `minimum_host_version`.
        public var required: SemanticVersion
        /// The app's version.
        public var host: SemanticVersion

        /// The versions that do not fit.
        /// - Parameters:
        ///   - required: The bundle's minimum.
        ///   - host: The app's version.
        public init(required: SemanticVersion, host: SemanticVersion) {
            self.required = required
            self.host = host
        }
    }

    /// The findings, in file order.
    public var diagnostics: [Diagnostic]
    /// Set when the bundle was refused because the app is older than it needs: switch on
    /// it to keep the old bundle quietly rather than report a broken one.
    public var hostTooOld: HostTooOld?

    /// Creates an error from findings.
    /// - Parameters:
    ///   - diagnostics: The findings.
    ///   - hostTooOld: The versions, when the bundle is for a newer app.
    public init(_ diagnostics: [Diagnostic], hostTooOld: HostTooOld? = nil) {
        self.diagnostics = diagnostics
        self.hostTooOld = hostTooOld
    }

    /// One finding a line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
