/// The public keys an app trusts, by key id: an artifact is accepted only when it names
/// one of them and carries that key's valid signature.
public struct Keyring: Sendable {
    private let keys: [String: VerificationKey]

    /// A keyring of `keys`, each trusted for its own ``VerificationKey/epoch``; a key given
    /// twice counts once, at the epoch it is first given with.
    public init(_ keys: [VerificationKey]) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The key with id `keyID`, or `nil`.
    public func key(id keyID: String) -> VerificationKey? { keys[keyID] }

    /// The ids of the keys, sorted.
    public var keyIDs: [String] { keys.keys.sorted() }
}
