import Crypto

extension ChannelPointer {
    /// Which devices take a pointer's artifact: `percent` of them, chosen by a hash of the
    /// device's install id and `salt`. Keeping the salt while raising the percent keeps
    /// every device that already had the artifact; a new salt draws a new sample.
    public struct Rollout: Sendable, Hashable {
        /// Every device.
        public static let everyone = Rollout(uncheckedPercent: 100, salt: "all")

        /// The share of devices, from 0 to 100; fractions allowed (`12.5`).
        public let percent: Double
        /// What the install id is hashed with: 1 to 64 of `A-Z a-z 0-9 . _ -`.
        public let salt: String

        /// A rollout.
        /// - Throws: ``PointerError`` (`malformed`) for a percent outside 0...100 or a bad salt.
        public init(percent: Double, salt: String) throws(PointerError) {
            guard percent.isFinite, (0...100).contains(percent) else {
                throw PointerError(.malformed, "rollout.percent: \(percent) is not from 0 to 100")
            }
            let bytes = Array(salt.utf8)
            let allowed = bytes.allSatisfy {
                (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0)
                    || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D
            }
            guard (1...64).contains(bytes.count), allowed else {
                throw PointerError(.malformed, "rollout.salt: not 1 to 64 of A-Z a-z 0-9 . _ -")
            }
            self.init(uncheckedPercent: percent, salt: salt)
        }

        private init(uncheckedPercent percent: Double, salt: String) {
            self.percent = percent
            self.salt = salt
        }
    }
}

extension ChannelPointer.Rollout {
    /// Whether the device with `installID` takes the artifact: a hash of the salt and the
    /// install id, read as a fraction of the devices, falls under the percent.
    ///
    /// Exactly: `h = SHA-256(UTF-8(salt) ‖ 0x00 ‖ UTF-8(installID))`; `b` = the first 8 bytes
    /// of `h`, big-endian, shifted right by 11 (53 bits); the device is in when
    /// `b / 2⁵³ × 100 < percent`. So 0 takes no device and 100 every one; raising the
    /// percent under the same salt keeps every device already in; a new salt draws a new
    /// sample. In Python, for analytics:
    /// `int.from_bytes(hashlib.sha256(salt.encode() + b"\0" + iid.encode()).digest()[:8], "big") >> 11`
    /// `/ 2**53 * 100 < percent`.
    /// - Parameter installID: The device's install id.
    public func includes(installID: String) -> Bool {
        if percent >= 100 { return true }
        if percent <= 0 { return false }
        return Self.position(of: installID, salt: salt) * 100 < percent
    }

    /// Where `installID` falls among the devices for `salt`: a fraction in [0, 1).
    static func position(of installID: String, salt: String) -> Double {
        let digest = SHA256.hash(data: Array(salt.utf8) + [0] + Array(installID.utf8))
        let bits = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 11
        return Double(bits) / 9_007_199_254_740_992  // 2^53: every 53-bit value is exact
    }
}
