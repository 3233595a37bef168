/// Which declared functions cannot answer a request with `respond(...)`
/// (``RuleAnalysis/nonResponding``), from where the functions that read `respond` are.
///
/// A declared function may respond when a function in its span — itself or one nested in
/// it — reads `respond`. When a function outside every declared one reads it (a helper, or
/// the file's main function holding it in a local), any rule may call it: then no declared
/// function is known not to respond. The spans are lines, so two functions on one line are
/// one to this: a doubt counts as "may respond", which costs a finding, never invents one.
///
/// Its work is O((d + r) log(d + r)) for d declared functions and r readers of `respond`,
/// and at most ``scanLimit`` steps per declared function.
enum RespondingFunctions {
    /// How many readers starting within one declared function's lines are looked at before
    /// it is taken as one that may respond: functions nest, so the first that starts inside
    /// it nearly always is inside it.
    static let scanLimit = 64

    /// The indices of `declared` that no reader of `respond` is within, or none when a
    /// reader is outside every declared function.
    /// - Parameters:
    ///   - declared: The spans of the declared functions whose code is known, by index.
    ///   - readers: The spans of every function that reads `respond`.
    static func nonResponding(declared: [Int: FunctionSpan], readers: [FunctionSpan]) -> Set<Int> {
        guard !readers.isEmpty else { return Set(declared.keys) }
        // Per file: the declared spans by first line, with the furthest last line so far.
        var enclosing: [String: (spans: [FunctionSpan], furthest: [Int])] = [:]
        for (file, spans) in Dictionary(grouping: declared.values, by: \.file) {
            let sorted = spans.sorted { $0.lineDefined < $1.lineDefined }
            var furthest: [Int] = []
            for span in sorted { furthest.append(max(furthest.last ?? 0, span.lastLineDefined)) }
            enclosing[file] = (sorted, furthest)
        }
        for reader in readers {
            guard let (spans, furthest) = enclosing[reader.file] else { return [] }
            let starting = firstIndex(in: spans) { $0.lineDefined > reader.lineDefined }
            guard starting > 0, furthest[starting - 1] >= reader.lastLineDefined else { return [] }
        }
        let byFile = Dictionary(grouping: readers, by: \.file).mapValues {
            $0.sorted { $0.lineDefined < $1.lineDefined }
        }
        var result = Set<Int>()
        for (index, span) in declared {
            guard let inFile = byFile[span.file] else {
                result.insert(index)
                continue
            }
            var position = firstIndex(in: inFile) { $0.lineDefined >= span.lineDefined }
            var steps = 0
            var responds = false
            while position < inFile.count, inFile[position].lineDefined <= span.lastLineDefined {
                steps += 1
                if steps > scanLimit || inFile[position].lastLineDefined <= span.lastLineDefined {
                    responds = true
                    break
                }
                position += 1
            }
            if !responds { result.insert(index) }
        }
        return result
    }

    /// The first index of sorted `spans` where `isPast` holds (it holds from there on).
    private static func firstIndex(in spans: [FunctionSpan], where isPast: (FunctionSpan) -> Bool) -> Int {
        var low = 0
        var high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(spans[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
