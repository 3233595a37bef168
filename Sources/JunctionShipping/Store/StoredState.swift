public import Junction

/// What ``BundleStore/load()`` could prove from the disk: every update in it hashes to the
/// names the state file gives, and whatever could not be proven is left out and listed in
/// ``problems``.
public struct StoredState: Sendable, Hashable {
    /// The update accepted last, unless it was dropped or its files are damaged.
    public var current: StoredUpdate?
    /// The update that was current before ``current``: what a launch falls back to.
    public var lastKnownGood: StoredUpdate?
    /// The kill switch in force, unless its pointer file is damaged: while it is, the app
    /// launches its embedded bundle, and ``current`` and ``lastKnownGood`` are kept for when
    /// a higher seq lifts it.
    public var pin: StoredPin?
    /// The identity accepted last; kept when ``current`` is dropped, so no older pointer is
    /// accepted again. `nil` only before the first commit (or when no state file could be read).
    public var ratchet: UpdateIdentity?
    /// The identities refused so far, oldest first, at most ``BundleStoreLimits/maximumFailures``.
    public var failed: [UpdateIdentity]
    /// The channel's ETag and the pointer it came with, as last remembered; check its
    /// ``StoredChannelTag/pointerSHA256`` against the pointer the device holds before using it.
    public var channelTag: StoredChannelTag?
    /// What the store found wrong while loading, each already logged: a corrupt or
    /// unreadable state file, a missing or damaged object or pointer. Empty when all is well.
    public var problems: [StoreError]

    /// A state.
    /// - Parameters:
    ///   - current: The current update.
    ///   - lastKnownGood: The last-known-good update.
    ///   - pin: The kill switch in force.
    ///   - ratchet: The identity accepted last.
    ///   - failed: The identities refused, oldest first.
    ///   - channelTag: The channel's ETag and its pointer.
    ///   - problems: What loading found wrong.
    public init(
        current: StoredUpdate? = nil, lastKnownGood: StoredUpdate? = nil, pin: StoredPin? = nil,
        ratchet: UpdateIdentity? = nil, failed: [UpdateIdentity] = [], channelTag: StoredChannelTag? = nil,
        problems: [StoreError] = []
    ) {
        self.current = current
        self.lastKnownGood = lastKnownGood
        self.pin = pin
        self.ratchet = ratchet
        self.failed = failed
        self.channelTag = channelTag
        self.problems = problems
    }
}
