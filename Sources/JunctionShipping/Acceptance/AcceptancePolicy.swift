public import JunctionArtifact
public import JunctionCore
public import JunctionLua
public import Logging
public import Junction

/// What a device holds an update to: the keys it trusts, the app's version and its
/// invariants, the clock skew it allows, and the bounds the artifact, its rules and its
/// decisions run under. One value, fixed when the app starts.
public struct AcceptancePolicy: Sendable {
    /// The keys whose signatures the device trusts, on pointers and artifacts alike.
    public var keyring: Keyring
    /// The app's own version: a bundle whose minimum host version is above it is refused.
    public var hostVersion: SemanticVersion
    /// The channel the device follows; a pointer of any other channel is refused, so a
    /// signed pointer of `beta`, with its higher seq, cannot be served as `stable`'s.
    /// `nil` checks nothing — only for an app whose key signs a single channel.
    public var channel: String?
    /// The device's install id, which places it in a pointer's rollout (see
    /// `ChannelPointer.Rollout.includes(installID:)`); keep it for the life of the install
    /// (``BundleStore/installID()`` does). `nil`: the device takes only pointers whose
    /// rollout is 100%, so a staged rollout never reaches a device it cannot place.
    public var installID: String?
    /// What the app promises whatever bundle is active; every update must keep each of them.
    public var invariants: [AppInvariant]
    /// How far in the future a pointer's or an artifact's `created` may be, for clocks
    /// that disagree; 5 minutes by default. It replaces ``artifactLimits``' own.
    public var clockSkew: Duration
    /// The caps an artifact is read under.
    public var artifactLimits: ArtifactLimits
    /// What the canonical JSON of the manifest, routes and tests may hold at most.
    public var jsonLimits: CanonicalJSONLimits
    /// The budgets the bundle's rules run under, while loading and deciding.
    public var sandboxLimits: SandboxLimits
    /// The bounds of each decision.
    public var deciderOptions: DeciderOptions
    /// The app's Swift interceptors, run beside every bundle's rules.
    public var interceptors: [SwiftInterceptor]
    /// Receives the rules' `print` and `log.*` output.
    public var ruleLogger: Logger
    /// Receives what the rules print while the device runs the bundle's own tests, so that
    /// those lines never read as the app's traffic (label `junction.selftest`).
    public var selfTestLogger: Logger
    /// A secret only this device holds, at least 32 bytes, kept outside the bundle store — in
    /// the Keychain, `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` — under which the
    /// updates it accepted are stamped (an HMAC of their exact bytes and this policy): a
    /// launch then verifies such an update in all but its self-tests and the app's
    /// invariants, which already passed here. `nil` (the default): no stamps, every launch
    /// verifies in full. A stamp cannot be made without the key, so whoever can write the
    /// store still cannot spare an update a check it did not pass on this device.
    public var stampKey: [UInt8]?

    /// A policy.
    /// - Parameters:
    ///   - keyring: The keys to trust.
    ///   - hostVersion: The app's version.
    ///   - channel: The channel the device follows.
    ///   - installID: The device's install id, for rollouts: 1 to 128 bytes of visible ASCII.
    ///   - invariants: What every bundle must keep; none by default.
    ///   - clockSkew: The allowed clock skew; 5 minutes by default.
    ///   - artifactLimits: The artifact's caps.
    ///   - jsonLimits: The canonical JSON's caps.
    ///   - sandboxLimits: The rules' budgets.
    ///   - deciderOptions: The decisions' bounds.
    ///   - interceptors: The app's Swift interceptors.
    ///   - ruleLogger: Receives the rules' output.
    ///   - selfTestLogger: Receives the rules' output while the bundle's tests run.
    ///   - stampKey: The device's secret for acceptance stamps (see ``stampKey``); none by default.
    public init(
        keyring: Keyring, hostVersion: SemanticVersion, channel: String?, installID: String? = nil,
        invariants: [AppInvariant] = [],
        clockSkew: Duration = .seconds(300), artifactLimits: ArtifactLimits = .default,
        jsonLimits: CanonicalJSONLimits = .default, sandboxLimits: SandboxLimits = SandboxLimits(),
        deciderOptions: DeciderOptions = DeciderOptions(), interceptors: [SwiftInterceptor] = [],
        ruleLogger: Logger = Logger(label: "junction.lua"),
        selfTestLogger: Logger = Logger(label: "junction.selftest"), stampKey: [UInt8]? = nil
    ) {
        precondition(stampKey.map { $0.count >= 32 } ?? true, "a stamp key is at least 32 bytes")
        precondition(clockSkew >= .zero, "a clock skew is not negative")
        precondition(
            installID.map { (1...128).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x21...0x7E).contains($0) } }
                ?? true,
            "an install id is 1 to 128 bytes of visible ASCII")
        self.installID = installID
        self.keyring = keyring
        self.hostVersion = hostVersion
        self.channel = channel
        self.invariants = invariants
        self.clockSkew = clockSkew
        self.artifactLimits = artifactLimits
        self.jsonLimits = jsonLimits
        self.sandboxLimits = sandboxLimits
        self.deciderOptions = deciderOptions
        self.interceptors = interceptors
        self.ruleLogger = ruleLogger
        self.selfTestLogger = selfTestLogger
        self.stampKey = stampKey
    }
}
