/// The known name a mistyped one most likely meant, for "did you mean" in messages:
/// `rolout` → `rollout`, `logni` → `login`, `Anti-Addiction` → `anti_addiction`.
///
/// A candidate is near when it reads the same ignoring case and punctuation, or when
/// the two differ by few edits (insertions, deletions, substitutions and swaps of two
/// neighbouring characters): at most one edit for names of up to four characters, two up
/// to eight, three beyond. The nearest wins; among equally near ones, the first given.
///
/// The cost is bounded whatever the input: names longer than ``maximumLength`` are
/// compared only by their folded spelling, and each comparison stops as soon as it is
/// farther than the limit.
package enum NearestName {
    /// Names longer than this (in characters) are not compared edit by edit.
    package static let maximumLength = 64

    /// The candidate `name` most likely meant, or `nil` when none is near.
    /// - Parameters:
    ///   - name: The name as written.
    ///   - candidates: The names that exist.
    /// - Returns: The nearest different candidate, if one is near enough.
    package static func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
        guard !name.isEmpty else { return nil }
        let written = Array(name)
        let folded = fold(name)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            if !folded.isEmpty, fold(candidate) == folded { return candidate }
            let other = Array(candidate)
            guard written.count <= maximumLength, other.count <= maximumLength else { continue }
            let limit = min(allowedEdits(for: max(written.count, other.count)), (best?.distance ?? .max) - 1)
            guard limit >= 1, let distance = editDistance(written, other, atMost: limit) else { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// `; did you mean "rollout"?`, or nothing when no candidate is near: the tail of a
    /// message that names an unknown thing.
    /// - Parameters:
    ///   - name: The name as written.
    ///   - candidates: The names that exist.
    /// - Returns: The suggestion, with its leading `; `, or an empty string.
    package static func suggestion(for name: String, among candidates: some Sequence<String>) -> String {
        nearest(to: name, among: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// How many edits still count as a slip for a name of `length` characters.
    static func allowedEdits(for length: Int) -> Int {
        switch length {
        case ...4: 1
        case ...8: 2
        default: 3
        }
    }

    /// The name lowercased, without punctuation: `Anti-Addiction` → `antiaddiction`.
    static func fold(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// The optimal-string-alignment distance of `a` and `b`, or `nil` when it is above
    /// `limit`: one row of the table at a time, stopping when a whole row is above it.
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var cost = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cost = min(cost, before[j - 2] + 1)
                }
                current[j] = cost
                rowMinimum = min(rowMinimum, cost)
            }
            if rowMinimum > limit { return nil }
            (before, previous, current) = (previous, current, before)
        }
        let distance = previous[b.count]
        return distance <= limit ? distance : nil
    }
}
