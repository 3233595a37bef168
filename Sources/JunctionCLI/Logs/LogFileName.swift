import JunctionShipping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names of a kind's files for one UTC hour.
///
/// The hour being written is `decisions-2026-11-28T17.ndjson.gz.open`; when the hour has
/// passed (or the collector stops) it is renamed to `decisions-2026-11-28T17.ndjson.gz`, or
/// to `decisions-2026-11-28T17.2.ndjson.gz` (`.3`, …) when a collector started again in the
/// same hour already sealed one. A file named `*.ndjson.gz` never changes after it appears.
struct LogFileName: Hashable, Sendable {
    /// What the file holds.
    let kind: DecisionLogKind
    /// Hours since 1970-01-01T00 UTC.
    let hour: Int

    /// The file of `kind` for the hour that holds `secondsSince1970`.
    /// - Parameters:
    ///   - kind: What the file holds.
    ///   - secondsSince1970: A time, in seconds since 1970 UTC.
    init(kind: DecisionLogKind, secondsSince1970: Double) {
        self.kind = kind
        hour = Int((secondsSince1970 / 3_600).rounded(.down))
    }

    /// The hour as the names spell it: `2026-11-28T17`.
    var hourText: String {
        var time = time_t(hour * 3_600)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour))"
    }

    /// The name of the file being appended to: `decisions-2026-11-28T17.ndjson.gz.open`.
    var openName: String { "\(kind.rawValue)-\(hourText).ndjson.gz\(Self.openSuffix)" }

    /// The name a sealed file takes: segment 1 is `decisions-2026-11-28T17.ndjson.gz`,
    /// segment 2 `decisions-2026-11-28T17.2.ndjson.gz`.
    /// - Parameter segment: Which sealing of this hour, from 1.
    func sealedName(segment: Int) -> String {
        "\(kind.rawValue)-\(hourText)\(segment == 1 ? "" : ".\(segment)").ndjson.gz"
    }

    /// What the name of a file being appended to ends with.
    static let openSuffix = ".open"

    /// The file an open file's name describes; `nil` for any other name.
    /// - Parameter openName: A name in the collector's folder.
    init?(openName: String) {
        guard openName.hasSuffix(".ndjson.gz" + Self.openSuffix) else { return nil }
        let stem = openName.dropLast((".ndjson.gz" + Self.openSuffix).count)
        guard let dash = stem.firstIndex(of: "-"), let kind = DecisionLogKind(rawValue: String(stem[..<dash])) else {
            return nil
        }
        let text = stem[stem.index(after: dash)...]
        guard text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}/) != nil else { return nil }
        let numbers = text.split(whereSeparator: { $0 == "-" || $0 == "T" }).compactMap { Int32($0) }
        var parts = tm()
        parts.tm_year = numbers[0] - 1900
        parts.tm_mon = numbers[1] - 1
        parts.tm_mday = numbers[2]
        parts.tm_hour = numbers[3]
        self.kind = kind
        hour = Int(timegm(&parts)) / 3_600
        guard self.openName == openName else { return nil }
    }
}
