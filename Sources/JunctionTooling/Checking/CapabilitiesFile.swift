package import Junction

/// One app version's capabilities and the file they were read from, for the checks of
/// what that version can open (``CapabilityCheck``): findings name the file.
package struct CapabilitiesFile: Sendable, Hashable {
    /// The file, as the user named it (`capabilities/app-6.0.json`).
    package var path: String
    /// What it says.
    package var capabilities: AppCapabilities

    /// Capabilities read from `path`.
    /// - Parameters:
    ///   - path: The file.
    ///   - capabilities: What it says.
    package init(path: String, capabilities: AppCapabilities) {
        self.path = path
        self.capabilities = capabilities
    }

    /// `6.0.0 (app-6.0.json)`.
    var label: String { "\(capabilities.hostVersion) (\(path))" }
}
