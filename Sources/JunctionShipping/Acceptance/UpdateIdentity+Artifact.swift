public import Junction

extension UpdateIdentity {
    /// The identity of `artifact` published under `seq`: its SHA-256 computed here.
    /// - Parameters:
    ///   - seq: The pointer's sequence number (0 for the bundle embedded in the app).
    ///   - artifact: The artifact's bytes.
    public init(seq: UInt64, artifact: [UInt8]) {
        self.init(seq: seq, artifactSHA256: SHA256Text.of(artifact))
    }
}
