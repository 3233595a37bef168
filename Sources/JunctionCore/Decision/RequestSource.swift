/// Who asked to open a URL. Routes not marked `exported` open only for
/// ``internal``; rules read it as `req.source`.
public struct RequestSource: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name rules see: `internal`, `push`, `universal_link`, `h5`, `external`, or
    /// any name the app uses.
    public let rawValue: String

    /// A source by name.
    /// - Parameter rawValue: The name rules see.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A source by name.
    /// - Parameter value: The name rules see.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The app itself: a tap, a button, code.
    public static let `internal`: RequestSource = "internal"
    /// A push notification's link.
    public static let push: RequestSource = "push"
    /// A universal link (an `https` link the OS handed to the app).
    public static let universalLink: RequestSource = "universal_link"
    /// A web page inside the app (H5).
    public static let h5: RequestSource = "h5"
    /// Another app, through a custom scheme.
    public static let external: RequestSource = "external"

    /// The sources every app has: `internal`, `push`, `universal_link`, `h5`, `external`.
    /// A bundle's manifest may declare more (``BundleManifest/sources``).
    public static let standard: [RequestSource] = [.internal, .push, .universalLink, .h5, .external]

    /// The name.
    public var description: String { rawValue }
}
