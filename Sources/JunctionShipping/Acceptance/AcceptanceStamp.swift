import JunctionArtifact
import JunctionCore
import Junction

/// What binds an update this device accepted to the checks it passed here, so a launch
/// need not run them again: the SHA-256 of the artifact's and the pointer's SHA-256 and a
/// fingerprint of the ``AcceptancePolicy`` they passed under — the keyring, the app's
/// version and channel, the invariants, the Swift interceptors' names and scopes, every
/// limit. The store keeps it beside the update (`accepted` in `state.json`).
///
/// At launch, an update whose stored stamp is the one this policy computes for its exact
/// bytes is verified again in everything that could have changed — its pointer's and
/// artifact's signatures, length and SHA-256, structure, member hashes and host version —
/// and compiled, but its self-tests and the app's invariants, which this policy already
/// ran on these bytes, are not run again. Anything else — no stamp, another one, other
/// bytes, a new app version, other invariants or interceptors — is verified in full, as
/// before, and stamped when it passes.
///
/// The stamp is no secret: whoever can write the app's store can write one. Such a writer
/// can already make the device launch its embedded bundle by deleting the store, and can
/// make it skip the tests only of an artifact signed by a key the app trusts: the stamp
/// spares a correctness check this device made, never an authenticity check.
enum AcceptanceStamp {
    /// Bumped when what acceptance checks changes, so that every stamp made before is
    /// verified again.
    static let revision = 1

    /// The policy's fingerprint: the SHA-256 of a text naming everything it checks with.
    static func fingerprint(of policy: AcceptancePolicy) -> String {
        var lines = [
            "junction acceptance \(revision)", "host \(policy.hostVersion)", "channel \(policy.channel ?? "-")",
        ]
        for id in policy.keyring.keyIDs {
            guard let key = policy.keyring.key(id: id) else { continue }
            lines.append("key \(id) epoch \(key.epoch) \(SHA256Text.of(key.rawRepresentation))")
        }
        for invariant in policy.invariants {
            // Canonical JSON: dictionaries in one order, whatever order they were built in.
            let value = RuleValue.table([
                "name": .string(invariant.name), "url": .string(invariant.url),
                "source": .string(invariant.source.rawValue), "params": .table(invariant.params),
                "context": .table(invariant.context), "expected": expected(invariant.expected),
            ])
            let text = (try? CanonicalJSON.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            lines.append("invariant \(text)")
        }
        for interceptor in policy.interceptors {
            lines.append(
                "interceptor \(interceptor.name) \(interceptor.scope) \(interceptor.priority) \(interceptor.onError)")
        }
        lines += [
            "artifact \(policy.artifactLimits)", "json \(policy.jsonLimits)", "sandbox \(policy.sandboxLimits)",
            "decider \(policy.deciderOptions)", "skew \(policy.clockSkew)",
        ]
        return SHA256Text.of(Array(lines.joined(separator: "\n").utf8))
    }

    /// The stamp of the update of these hashes, under the policy of `fingerprint`.
    static func of(artifactSHA256: String, pointerSHA256: String, fingerprint: String) -> String {
        SHA256Text.of(Array("stamp \(revision)\n\(fingerprint)\n\(artifactSHA256)\n\(pointerSHA256)".utf8))
    }

    private static func expected(_ outcome: AppInvariant.Outcome) -> RuleValue {
        switch outcome {
        case .opens(let route, let params): .table(["opens": .string(route), "params": .table(params)])
        case .rejected: .string("rejected")
        case .gated(let url): .table(["gated": .string(url)])
        case .redirected(let url): .table(["redirected": .string(url)])
        case .handedOver(let scheme): .table(["handed_over": .string(scheme)])
        case .unmatched: .string("unmatched")
        }
    }
}
