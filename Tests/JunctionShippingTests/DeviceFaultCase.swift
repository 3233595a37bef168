import Foundation
import Junction
import JunctionShipping

/// One update a device is offered — a pointer, the artifact it would fetch, what the device
/// knows — and what must come of it. None of them activates.
struct DeviceFaultCase: Sendable, CustomStringConvertible {
    /// What must come of the update.
    enum Expected: Sendable, Hashable {
        /// The pointer announces the update already active.
        case unchanged
        /// Refused, with one of these codes.
        case refused(Set<UpdateRefusal.Code>)
    }

    /// What is being tried: `pointer byte 17 bit 3`, `lua compile error`.
    var name: String
    /// The pointer file offered.
    var pointer: [UInt8]
    /// The artifact fetched once the pointer passes.
    var artifact: [UInt8]
    /// The update the device accepted last.
    var accepted: UpdateIdentity? = DeviceFaultCases.accepted
    /// The updates the device refused before.
    var failed: Set<UpdateIdentity> = []
    /// What must come of it.
    var expected: Expected

    var description: String { name }

    /// What the pipeline makes of it: an acceptance is a failure of the case.
    enum Result: Equatable {
        case unchanged
        case pinEmbedded
        case notInRollout
        case refused(UpdateRefusal)
        case accepted(String)
    }

    /// What ``run(_:checks:)`` remembers of a pointer's check, which is a pure function of these.
    struct CheckKey: Hashable {
        var pointer: [UInt8]
        var accepted: UpdateIdentity?
        var failed: Set<UpdateIdentity>
    }

    /// Runs the two steps, at ``ShippingFixture/now``; a pointer checked before in `checks`
    /// is not verified again (thousands of cases share the valid one).
    func run(_ acceptance: UpdateAcceptance, checks: inout [CheckKey: Swift.Result<PointerCheck, UpdateRefusal>])
        -> Result
    {
        let key = CheckKey(pointer: pointer, accepted: accepted, failed: failed)
        let check =
            checks[key]
            ?? Swift.Result { () throws(UpdateRefusal) in
                try acceptance.checkPointer(pointer, accepted: accepted, failed: failed, at: ShippingFixture.now)
            }
        checks[key] = check
        do {
            switch try check.get() {
            case .unchanged: return .unchanged
            case .pinEmbedded: return .pinEmbedded
            case .notInRollout: return .notInRollout
            case .fetch(let verified):
                let update = try acceptance.acceptArtifact(artifact, for: verified, at: ShippingFixture.now)
                return .accepted(update.label)
            }
        } catch {
            return .refused(error)
        }
    }

    /// Runs the two steps, at ``ShippingFixture/now``.
    func run(_ acceptance: UpdateAcceptance) -> Result {
        var checks: [CheckKey: Swift.Result<PointerCheck, UpdateRefusal>] = [:]
        return run(acceptance, checks: &checks)
    }

    /// Whether `result` is what the case expects.
    func holds(for result: Result) -> Bool {
        switch (expected, result) {
        case (.unchanged, .unchanged): true
        case (.refused(let codes), .refused(let refusal)): codes.contains(refusal.code)
        default: false
        }
    }
}
