/// The globals a sealed bundle's rules can read: the sandbox's and those the bundle's
/// files defined while loading (``LuaState/globalNames()``).
struct GlobalNames {
    /// The sandbox's globals (`string`, `rollout`, `redirect`, …).
    var sandbox: Set<String> = []
    /// The globals the bundle's files defined, `_G` included.
    var bundle: Set<String> = []
    /// The fields of each sandbox library table the bundle does not replace with a
    /// global of its own (`url` → `encode`, `decode`, …).
    var libraries: [String: Set<String>] = [:]
    /// The global whose value is the bundle's environment itself (`_G`), unless the bundle
    /// replaced it: reading one of its fields reads a global.
    var environmentTable: String?

    /// Whether reading the global `name` finds a value.
    func defines(_ name: String) -> Bool { bundle.contains(name) || sandbox.contains(name) }
}
