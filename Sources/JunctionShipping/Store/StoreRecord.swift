import JunctionCore
import Junction

/// The store's one small state file: which update is current and which is last-known-good
/// (by the SHA-256 of their artifact and pointer, the names of their files), the kill switch
/// in force (by its pointer's SHA-256), the ratchet and the refused identities. Written as canonical JSON and read back only in that exact form,
/// so a torn or edited file is refused rather than half-believed.
struct StoreRecord: Hashable {
    /// An update the state names: its identity and the SHA-256 of its pointer.
    struct Entry: Hashable {
        var identity: UpdateIdentity
        var pointerSHA256: String
    }

    /// The state file's format version.
    static let format: Int64 = 1

    var current: Entry?
    var lastKnownGood: Entry?
    /// The kill switch in force: its identity names an artifact the store does not hold.
    var pin: Entry?
    var ratchet: UpdateIdentity?
    var failed: [UpdateIdentity] = []
    /// The channel's validator and the pointer it came with.
    var channelTag: StoredChannelTag?

    /// The state of a store that has never committed.
    static let empty = StoreRecord()

    private init() {}

    /// The hashes of every file this state names, objects and pointers alike.
    var artifactNames: Set<String> { Set([current, lastKnownGood].compactMap { $0?.identity.artifactSHA256 }) }
    var pointerNames: Set<String> { Set([current, lastKnownGood, pin].compactMap { $0?.pointerSHA256 }) }

    /// The canonical JSON text.
    func encoded() -> [UInt8] {
        var fields: [String: RuleValue] = ["format": .int(Self.format), "failed": .array(failed.map(Self.value))]
        if let current { fields["current"] = Self.value(current) }
        if let lastKnownGood { fields["last_known_good"] = Self.value(lastKnownGood) }
        if let pin { fields["pin"] = Self.value(pin) }
        if let ratchet { fields["ratchet"] = Self.value(ratchet) }
        if let channelTag {
            fields["etag"] = .table(["pointer": .string(channelTag.pointerSHA256), "value": .string(channelTag.etag)])
        }
        // Every value is an integer, text, or a table of them: nothing canonical JSON refuses.
        return try! CanonicalJSON.encode(.table(fields))
    }

    /// Reads a state file's bytes.
    /// - Throws: `CanonicalJSONError` saying what is wrong and where.
    init(decoding bytes: [UInt8], file: String, limits: BundleStoreLimits) throws(CanonicalJSONError) {
        let value = try CanonicalJSON.decode(
            bytes, file: file, limits: CanonicalJSONLimits(maximumBytes: limits.maximumStateBytes, maximumDepth: 4))
        var object = try CanonicalJSONObject(value, at: "", file: file, what: "the store's state")
        guard case .int(Self.format) = try object.required("format") else {
            throw object.error("format", "not \(Self.format), the only format this store reads")
        }
        if let entry = try object.object("current", what: "an update") { current = try Self.entry(entry) }
        if let entry = try object.object("last_known_good", what: "an update") { lastKnownGood = try Self.entry(entry) }
        if let entry = try object.object("pin", what: "a kill switch") { pin = try Self.entry(entry) }
        if var ratchet = try object.object("ratchet", what: "an identity") {
            self.ratchet = try Self.identity(&ratchet)
            try ratchet.finish()
        }
        if var tag = try object.object("etag", what: "a channel tag") {
            let pointer = try tag.requiredString("pointer")
            guard Self.isHash(pointer) else { throw tag.error("pointer", "not 64 lowercase hex digits") }
            let etag = try tag.requiredString("value")
            guard StoredChannelTag.isStorable(etag) else {
                throw tag.error("value", "not 1 to \(TransportResponse.maximumETagBytes) bytes of visible ASCII")
            }
            try tag.finish()
            channelTag = StoredChannelTag(etag: etag, pointerSHA256: pointer)
        }
        let failed = try object.array("failed") ?? []
        guard failed.count <= limits.maximumFailures else {
            throw object.error("failed", "\(failed.count) identities, more than the \(limits.maximumFailures) kept")
        }
        for (index, item) in failed.enumerated() {
            var identity = try CanonicalJSONObject(item, at: "failed[\(index)]", file: file, what: "an identity")
            self.failed.append(try Self.identity(&identity))
            try identity.finish()
        }
        try object.finish()
        guard encoded() == bytes else {
            throw CanonicalJSONError(
                file: file, place: "", message: "not in the canonical form the store writes; it was edited or torn")
        }
        if let current, ratchet.map({ current.identity.isLater(than: $0) }) ?? true {
            throw object.error("ratchet", "missing or below the current update \(current.identity)")
        }
        if let pin, ratchet.map({ pin.identity.isLater(than: $0) }) ?? true {
            throw object.error("ratchet", "missing or below the kill switch \(pin.identity)")
        }
    }

    private static func entry(_ object: CanonicalJSONObject) throws(CanonicalJSONError) -> Entry {
        var object = object
        let identity = try identity(&object)
        let pointer = try object.requiredString("pointer")
        guard isHash(pointer) else { throw object.error("pointer", "not 64 lowercase hex digits") }
        try object.finish()
        return Entry(identity: identity, pointerSHA256: pointer)
    }

    private static func identity(_ object: inout CanonicalJSONObject) throws(CanonicalJSONError) -> UpdateIdentity {
        guard case .int(let seq) = try object.required("seq"), seq >= 0 else {
            throw object.error("seq", "not a whole number from 0")
        }
        // Written only above 0: a state file from before epochs reads as epoch 0, and one at
        // epoch 0 is what an older app reads.
        var epoch: Int64 = 0
        if let value = object.value("epoch") {
            guard case .int(let number) = value, number >= 1 else {
                throw object.error("epoch", "not a whole number from 1")
            }
            epoch = number
        }
        let artifact = try object.requiredString("artifact")
        guard isHash(artifact) else { throw object.error("artifact", "not 64 lowercase hex digits") }
        return UpdateIdentity(epoch: UInt64(epoch), seq: UInt64(seq), artifactSHA256: artifact)
    }

    private static func fields(_ identity: UpdateIdentity) -> [String: RuleValue] {
        var fields: [String: RuleValue] = [
            "seq": .int(Int64(identity.seq)), "artifact": .string(identity.artifactSHA256),
        ]
        if identity.epoch > 0 { fields["epoch"] = .int(Int64(identity.epoch)) }
        return fields
    }

    private static func value(_ identity: UpdateIdentity) -> RuleValue { .table(fields(identity)) }

    private static func value(_ entry: Entry) -> RuleValue {
        .table(fields(entry.identity).merging(["pointer": .string(entry.pointerSHA256)]) { first, _ in first })
    }

    /// Whether `text` is a SHA-256 in lowercase hex: the only names the store builds paths from.
    static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
