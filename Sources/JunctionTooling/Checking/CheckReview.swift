package import JunctionCore
import Junction

/// What `junction check` found in a bundle once its manifest's `allow:` is applied: the
/// findings that stand, and those an allowance accepts on purpose, each with it
/// (``BundleChecker/review(apps:)``).
package struct CheckReview: Sendable {
    /// A finding an allowance accepts.
    package struct Accepted: Sendable {
        /// The finding, as it would stand without the allowance.
        package var finding: Finding
        /// The manifest's entry that accepts it.
        package var allowance: FindingAllowance
    }

    /// The findings that stand, by file, line and column; with ``Finding/Code/badAllowance``
    /// and ``Finding/Code/unusedAllowance`` for entries of `allow:` that accept nothing.
    package var findings: [Finding]
    /// The findings accepted on purpose, in the order found.
    package var accepted: [Accepted]

    /// Applies `allowances` to `findings`: a finding of an acceptable code whose subject
    /// an allowance names is accepted; an allowance of another code is an error, one that
    /// accepts nothing a warning.
    package init(findings: [Finding], allowances: [FindingAllowance]) {
        var standing: [Finding] = []
        var accepted: [Accepted] = []
        var used = Set<Int>()
        for finding in findings {
            guard Finding.Code.acceptable.contains(finding.code), let subject = finding.subject,
                let index = allowances.firstIndex(where: { $0.code == finding.code.rawValue && $0.subject == subject })
            else {
                standing.append(finding)
                continue
            }
            used.insert(index)
            accepted.append(Accepted(finding: finding, allowance: allowances[index]))
        }
        let acceptable = Finding.Code.acceptable.map(\.rawValue).sorted()
        for (index, allowance) in allowances.enumerated() where !used.contains(index) {
            if acceptable.contains(allowance.code) {
                standing.append(
                    Finding(
                        .warning, .unusedAllowance,
                        "allow accepts \(allowance.code) at \(MessageText.quoted(allowance.subject)), but check "
                            + "finds no such finding: remove the entry, or fix what it names (a declared redirect's "
                            + "from, an interceptor's or a group's name) — a stale allowance would accept a later "
                            + "mistake unseen",
                        at: allowance.location))
            } else {
                standing.append(
                    Finding(
                        .error, .badAllowance,
                        "allow names \(MessageText.quoted(allowance.code)), which no allowance can accept: only "
                            + "findings that weaken a policy can be (\(acceptable.joined(separator: ", ")))"
                            + NearestName.suggestion(for: allowance.code, among: acceptable)
                            + " — fix what the finding says instead",
                        at: allowance.location))
            }
        }
        self.findings = standing
        self.accepted = accepted
    }
}
