import Crypto
import JunctionArtifact
import JunctionCore
import Junction

/// What binds an update this device accepted to the checks it passed here, so a launch
/// need not run them again: an HMAC-SHA256, under the device's secret
/// (``AcceptancePolicy/stampKey``), of the artifact's and the pointer's SHA-256 and a
/// fingerprint of the ``AcceptancePolicy`` they passed under — the keyring, the app's
/// version and channel, the invariants, the Swift interceptors' names, scopes, priorities
/// and error policies, every limit, and ``revision``. The store keeps it beside the update
/// (`stamps/<pointer's SHA-256>`).
///
/// At launch, an update whose stored stamp is the one this policy computes for its exact
/// bytes is verified again in everything that could have changed — its artifact's length
/// and SHA-256 against the pointer, the pointer's channel, both files' structure, the host
/// version — and compiled. What this policy already checked on these bytes is not checked
/// again: the pointer's and artifact's Ed25519 signatures, the members' hashes and the
/// canonical form of the pointer and the artifact's header (the same bytes, by SHA-256,
/// under the same keyring), the self-tests, the app's invariants, and
/// the comparison of its routes with each other (``RouteTableBuilder/buildValidatedBefore()``). Anything else — no stamp, another one, other
/// bytes, a new app version, other invariants or interceptors — is verified in full, as
/// before, and stamped when it passes. Without the device's secret no stamp can be made:
/// whoever can write the store cannot spare an update a check it did not pass here.
///
/// What the stamp cannot see: the code of the app's Swift interceptors and of Junction
/// itself. A release that changes either must change ``AcceptancePolicy/hostVersion`` —
/// as every release does — or the updates accepted before keep their stamps.
enum AcceptanceStamp {
    /// Bumped when what acceptance checks changes, so that every stamp made before is
    /// verified again.
    /// 2: a stamped update's route table, signatures and member hashes are not checked again
    /// at launch.
    static let revision = 2

    /// The policy's fingerprint: the SHA-256 of a text naming, field by field, everything
    /// it checks with.
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
                "interceptor \(interceptor.name) \(scope(interceptor.scope)) \(interceptor.priority) "
                    + onError(interceptor.onError))
        }
        let artifact = policy.artifactLimits
        let json = policy.jsonLimits
        let sandbox = policy.sandboxLimits
        let decider = policy.deciderOptions
        lines += [
            "artifact \(artifact.totalSize) \(artifact.headerSize) \(artifact.memberCount) \(artifact.pathLength) "
                + "\(artifact.clockSkew.components.seconds)",
            "json \(json.maximumBytes) \(json.maximumDepth) \(json.maximumStringBytes) \(json.maximumNumberLength)",
            "sandbox \(sandbox.memoryBytes) \(sandbox.instructions) \(sandbox.instructionInterval) "
                + "\(sandbox.decisionInstructions) \(sandbox.decisionTime.components.seconds) "
                + "\(sandbox.decisionTime.components.attoseconds) \(sandbox.logBytes) \(sandbox.logLines)",
            "decider \(decider.maximumRedirects) \(decider.maximumGateDepth) \(decider.maximumVerdictBytes) "
                + "\(decider.maximumTraceBytes) \(decider.hostVersion.map { "\($0)" } ?? "-")",
            "skew \(policy.clockSkew.components.seconds) \(policy.clockSkew.components.attoseconds)",
        ]
        return SHA256Text.of(Array(lines.joined(separator: "\n").utf8))
    }

    /// The stamp of the update of these hashes, under the policy of `fingerprint`, made
    /// with `key`: 64 lowercase hex digits.
    static func of(artifactSHA256: String, pointerSHA256: String, fingerprint: String, key: [UInt8]) -> String {
        let message = Array("stamp \(revision)\n\(fingerprint)\n\(artifactSHA256)\n\(pointerSHA256)".utf8)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: code.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    private static func scope(_ scope: SwiftInterceptor.Scope) -> String {
        switch scope {
        case .all: "all"
        case .group(let name): "group \(name.utf8.count):\(name)"
        case .route(let name): "route \(name.utf8.count):\(name)"
        case .routes(let names): "routes " + names.map { "\($0.utf8.count):\($0)" }.joined(separator: ",")
        case .pattern(let pattern): "pattern \(pattern.utf8.count):\(pattern)"
        case .patterns(let patterns): "patterns " + patterns.map { "\($0.utf8.count):\($0)" }.joined(separator: ",")
        }
    }

    private static func onError(_ policy: RuleErrorPolicy) -> String {
        switch policy {
        case .reject: "reject"
        case .continue: "continue"
        }
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
