import JunctionCore

/// `agent --host-version V`: the app version a device plays, read as `version.compare`
/// reads versions (``SemanticVersion/init(parsing:)``).
struct HostVersionArgument: OptionValue, Hashable, CustomStringConvertible {
    /// The version.
    let version: SemanticVersion

    init(parsing text: String) throws(OptionValueError) {
        do { version = try SemanticVersion(parsing: text) } catch { throw OptionValueError("\(error)") }
    }

    /// `version`.
    init(_ version: SemanticVersion) {
        self.version = version
    }

    /// The version.
    var description: String { version.description }
}
