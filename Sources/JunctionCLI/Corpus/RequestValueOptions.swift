import ArgumentParser

/// The options `eval` and `diff` share for what a request carries besides its URL: the
/// context it is decided in (`--context`, or each of `--contexts FILE` for a corpus) and
/// extra parameters (`--param`).
struct RequestValueOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("A context value: key=value; dots nest (user.id=42).", valueName: "key=value"))
    var context: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --urls: decide each line without a context once in each context of FILE, one JSON object a line, over the --context values.",
            valueName: "file"))
    var contexts: String?

    @Option(name: .long, help: ArgumentHelp("An extra parameter: key=value.", valueName: "key=value"))
    var param: [String] = []

    /// The corpus options with `sources` for lines that name none.
    func corpus(sources: [String]) -> CorpusOptions {
        CorpusOptions(sources: sources, context: context, contexts: contexts, params: param)
    }
}
