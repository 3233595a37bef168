/// Deterministic bucketing for gradual rollouts: the same key and id land in the same
/// bucket on every device, platform and in the CLI, so "10% of users" means the same
/// users everywhere, and raising the percentage only adds users.
///
/// The bucket is `h mod 10,000` (a hundredth of a percent), where `h` is the 64-bit
/// FNV-1a hash of the UTF-8 bytes of `key`, a zero byte, and `id`, finished with the
/// SplitMix64 mixer. Both steps are fixed here and in `docs/rules.md`; they must never change.
package enum Rollout {
    /// The bucket of `id` in the rollout named `key`, from 0 to 9,999.
    /// - Parameters:
    ///   - key: The rollout's name, e.g. `"new-checkout"`; different keys spread ids independently.
    ///   - id: A stable id of the user or device.
    /// - Returns: The bucket.
    @inlinable
    package static func bucket(key: some StringProtocol, id: some StringProtocol) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        for byte in key.utf8 { add(byte) }
        add(0)
        for byte in id.utf8 { add(byte) }
        // SplitMix64's finalizer: spreads FNV's weak low bits over the whole word.
        hash ^= hash >> 30
        hash &*= 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash &*= 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int(hash % 10_000)
    }

    /// Whether `id` is among the first `percent` percent of the rollout `key`.
    /// - Parameters:
    ///   - key: The rollout's name.
    ///   - id: A stable id of the user or device.
    ///   - percent: From 0 (nobody) to 100 (everybody), in steps of 0.01.
    /// - Returns: Whether the id is in.
    @inlinable
    package static func includes(key: some StringProtocol, id: some StringProtocol, percent: Double) -> Bool {
        guard percent > 0 else { return false }
        guard percent < 100 else { return true }
        return bucket(key: key, id: id) < Int((percent * 100).rounded(.down))
    }
}
