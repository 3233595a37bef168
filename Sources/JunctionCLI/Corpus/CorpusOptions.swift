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

        /// The next batch of requests — empty at the end — and the error of a line that
        /// cannot be read or names a source the bundle does not know: the requests of the
        /// lines before it come first.
        mutating func nextBatch() -> (requests: [CorpusRequest], failure: CorpusError?) {
            var (entries, failure) = reader.nextBatch(limit: max(1, CorpusReader.batchSize / expansion.fanOut))
            for index in entries.indices {
                if let source = entries[index].source, let message = manifest.unknownSourceMessage(source) {
                    failure = CorpusError(file: path, line: entries[index].line, message: "source: \(message)")
                    entries.removeSubrange(index...)
                    break
                }
            }
            return (entries.flatMap(expansion.requests(for:)), failure)
        }
    }

    /// Checks the options against `manifest` and opens `path`; a problem is printed and
    /// exits 3.
    func open(_ path: String, manifest: BundleManifest) throws(ExitCode) -> Opened {
        do {
            let params = try KeyValueArguments.parse(self.params, option: "--param")
            let base = try KeyValueArguments.parse(context, option: "--context", schema: manifest.context)
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
                manifest: manifest, path: path)
        } catch let error as KeyValueArguments.ParseError {
            printError(error.message)
            throw ExitCode(3)
        } catch {
            printError("\(error)")
            throw ExitCode(3)
        }
    }
}
