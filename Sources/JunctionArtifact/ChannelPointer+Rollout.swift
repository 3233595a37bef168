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
