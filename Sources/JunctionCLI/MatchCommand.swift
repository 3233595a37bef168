import ArgumentParser
import Junction
import JunctionAuthoring

/// `junction match --routes FILE [--json] URL...`
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match URLs against a route table.",
        discussion: """
            Prints, per URL, the route it matches with its decoded path parameters and query, \
            or why it matches none. Exit status: 0 when every URL parsed (matched or not), \
            2 when the route table has errors, 3 when some URL did not parse (the others are still printed).
            """
    )

    @Option(name: .long, help: ArgumentHelp("The route table (YAML or JSON).", valueName: "file"))
    var routes: String

    @Flag(name: .long, help: "One JSON object per line.")
    var json = false

    @Flag(name: .long, help: "Also list every other matching route and every route a parameter constraint turned away.")
    var explain = false

    @Argument(help: ArgumentHelp("The URLs to match.", valueName: "url"))
    var urls: [String]

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one URL to match") }
    }

    func run() throws {
        let table: RouteTable
        do {
            table = try RouteTable.load(contentsOf: routes)
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        var unparsed = 0
        for url in urls {
            let line: String
            do {
                let uri = try URI(url)
                let explanation = table.explain(uri)
                line =
                    json
                    ? MatchRendering.json(url: url, explanation)
                    : MatchRendering.text(url: url, explanation, verbose: explain)
            } catch {
                unparsed += 1
                line =
                    json
                    ? MatchRendering.json(url: url, unparsed: error) : MatchRendering.text(url: url, unparsed: error)
            }
            print(line)
        }
        if unparsed > 0 { throw ExitCode(3) }
    }
}
