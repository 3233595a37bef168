/// How `junction codegen` writes a route table as Swift.
public struct SwiftRouteCodeOptions: Sendable, Hashable {
    /// Who may use the generated type.
    public enum Access: String, Sendable, Hashable, CaseIterable {
        /// Code in the same module.
        case `internal`
        /// Every module that imports it.
        case `public`
    }

    /// The enum's name: `Routes`.
    public var typeName: String
    /// Its access level.
    public var access: Access
    /// The command the header says made the file, so it can be made again.
    public var command: String

    /// Options.
    /// - Parameters:
    ///   - typeName: The enum's name; `Routes` by default.
    ///   - access: Its access level; `internal` by default.
    ///   - command: The command for the header.
    public init(typeName: String = "Routes", access: Access = .internal, command: String) {
        self.typeName = typeName
        self.access = access
        self.command = command
    }
}
