import JunctionTooling
import ArgumentParser
import Junction

/// The options that say how a corpus's lines become requests — `--source`, `--context`,
/// `--contexts FILE`, `--param` — checked against a bundle's manifest, and the corpus opened.
struct CorpusOptions {
    var sources: [String]
    var context: [String]
    var contexts: String?
    var params: [String]

    /// A corpus opened for reading, and how its lines become requests.
    struct Opened {
        var reader: CorpusReader
        let expansion: CorpusExpansion
        let manifest: BundleManifest
        let path: String
        /// Whether a line that cannot be read is skipped (counted in ``skipped``) rather
        /// than the end of the corpus.
        let skipsBadLines: Bool
        /// The lines skipped, when ``skipsBadLines``.
        private(set) var skipped = SkippedLines()
        /// Whether the whole corpus was read.
        private(set) var finished = false

        /// The next batch of requests and the error that ends the corpus, if one does.
        ///
        /// A line that cannot be read or names a source the bundle does not know ends it —
        /// the requests of the lines before it come first — unless ``skipsBadLines``: then
        /// it is counted in ``skipped`` and reading goes on, and only an error of the whole
        /// file (unreadable, damaged gzip) ends it. An empty batch is the end when bad
        /// lines stop the corpus; when they are skipped, a batch of only bad lines may be
        /// empty too: read until ``finished``.
        mutating func nextBatch() -> (requests: [CorpusRequest], failure: CorpusError?) {
            let limit = max(1, CorpusReader.batchSize / expansion.fanOut)
            var entries: [CorpusEntry] = []
            var skippedNow = 0
            while !finished && entries.count < limit && skippedNow < CorpusReader.batchSize {
                let wanted = limit - entries.count
                let (read, failure) = reader.nextBatch(limit: wanted)
                for entry in read {
                    if let source = entry.source, let message = manifest.unknownSourceMessage(source) {
                        let error = CorpusError(file: path, line: entry.line, message: "source: \(message)")
                        guard skipsBadLines else {
                            finished = true
                            return (entries.flatMap(expansion.requests(for:)), error)
                        }
                        skipped.record(error)
                        skippedNow += 1
                    } else {
                        entries.append(entry)
                    }
                }
                guard let failure else {
                    // The reader stops short of what was asked only at the end.
                    if read.count < wanted { finished = true }
                    continue
                }
                guard skipsBadLines, failure.line > 0 else {
                    finished = true
                    return (entries.flatMap(expansion.requests(for:)), failure)
                }
                skipped.record(failure)
                skippedNow += 1
            }
            return (entries.flatMap(expansion.requests(for:)), nil)
        }
    }

    /// Checks the options against `manifest` and opens `path`; a problem is printed and
    /// exits 3.
    /// - Parameters:
    ///   - path: The corpus (`-`: standard input).
    ///   - manifest: The bundle's manifest: its sources and context schema.
    ///   - skipsBadLines: Whether a line that cannot be read is skipped and counted
    ///     rather than the end of the corpus.
    func open(_ path: String, manifest: BundleManifest, skipsBadLines: Bool = false) throws(ExitCode) -> Opened {
        do {
            let params = try KeyValueArguments.parse(self.params, option: "--param")
            let base = try ContextArguments(context).values(schema: manifest.context)
            for source in sources {
                if let message = manifest.unknownSourceMessage(source) {
                    throw KeyValueArguments.ParseError(message: "--source: \(message)")
                }
            }
            let contexts =
                try contexts.map {
                    path throws(CorpusError) in try ContextsFile.read(path, over: base, schema: manifest.context)
                } ?? [ContextSnapshot(base)]
            let expansion = CorpusExpansion(
                sources: sources.map { RequestSource(rawValue: $0) }, contexts: contexts, params: params)
            return Opened(
                reader: try CorpusReader(path: path, schema: manifest.context), expansion: expansion,
                manifest: manifest, path: path, skipsBadLines: skipsBadLines)
        } catch let error as KeyValueArguments.ParseError {
            printError(error.message)
            throw ExitCode(3)
        } catch {
            printError("\(error)")
            throw ExitCode(3)
        }
    }
}
