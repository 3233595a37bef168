import ArgumentParser
import Junction
import JunctionAuthoring

/// `junction routes check FILE`: validate a route table.
struct RoutesCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a route table.",
        discussion:
            "Prints each problem as FILE:LINE:COL: error: message. Exit status: 0 when the table is valid, 1 otherwise."
    )

    @Argument(help: ArgumentHelp("The route table (YAML or JSON).", valueName: "file"))
    var file: String

    func run() throws {
        do {
            let table = try RouteTable.load(contentsOf: file)
            let patterns = table.routes.count == 1 ? "1 route" : "\(table.routes.count) routes"
            print("\(file): ok, \(patterns)")
        } catch {
            for diagnostic in error.diagnostics { print(diagnostic) }
            let count = error.diagnostics.count
            print("\(file): \(count) error\(count == 1 ? "" : "s")")
            throw ExitCode(1)
        }
    }
}
