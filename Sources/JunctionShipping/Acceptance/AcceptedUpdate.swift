public import Foundation
public import JunctionArtifact
public import JunctionLua
public import Junction

/// An update the device accepted: every check passed, the bundle's own tests and the
/// app's invariants hold, and its decider is ready to swap in. It keeps the exact bytes
/// that were verified, to persist as they are (never a re-serialisation).
public struct AcceptedUpdate: Sendable {
    /// The channel pointer that announced it, with its exact bytes; `nil` for the bundle
    /// embedded in the app.
    public let pointer: VerifiedPointer?
    /// The verified artifact; its ``Artifact/bytes`` are the exact bytes verified.
    public let artifact: Artifact
    /// The bundle the artifact holds, compiled. Reopened at launch under its acceptance
    /// stamp (``UpdateAcceptance/reverify(_:)``), it holds no tests: they ran when it was
    /// accepted.
    public let bundle: RuleBundle
    /// The decider for the bundle, with the app's Swift interceptors and decider options.
    public let decider: Decider
    /// The pointer's seq and the artifact's SHA-256; seq 0 for the embedded bundle, which
    /// any published pointer (seq 1 and up) supersedes.
    public let identity: UpdateIdentity

    /// The artifact's exact bytes.
    public var artifactBytes: [UInt8] { artifact.bytes }

    /// The update's name for people: `shop@1.4.0 seq 7 (sha256 3f2a…c1d0)`.
    public var label: String { "\(bundle.directory) \(identity)" }

    /// When it stops being fresh: the earlier of the pointer's and the artifact's `expires`.
    public var expires: Date { min(pointer?.pointer.expires ?? artifact.header.expires, artifact.header.expires) }

    /// Whether it is past ``expires`` at `now`: a bundle that keeps deciding but should be
    /// reported `stale`.
    /// - Parameter now: The time to judge by.
    /// - Returns: Whether it has expired.
    public func isStale(at now: Date) -> Bool { now >= expires }
}
