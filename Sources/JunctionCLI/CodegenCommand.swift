import ArgumentParser
import Foundation
import Junction
import JunctionAuthoring

/// `junction codegen ROUTES --swift FILE`: typed Swift for a route table.
struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Write a route table as Swift: a function per route that builds its URL, and the routes' names.",
        discussion: """
            For each route, a function of typed, labelled parameters that returns its URL \
            (Routes.userProfile(id: 42) → "myapp://user/42"): path parameters of their declared \
            type, those in optional groups optional, declared query parameters with their \
            defaults, every value percent-encoded; and Routes.Name, each route's name. The output \
            depends only on the table and the options, so CI can generate it and compare. \
            Exit status: 0 written; 1 when the table has errors or two routes or parameters would \
            have the same Swift name; 2 when FILE cannot be written.
            """
    )

    @Argument(help: ArgumentHelp("The route table (routes.yaml).", valueName: "routes"))
    var routes: String

    @Option(name: .long, help: ArgumentHelp("The Swift file to write (- for standard output).", valueName: "file"))
    var swift: String

    @Option(name: .customLong("type-name"), help: "The generated enum's name.")
    var typeName = "Routes"

    @Option(name: .long, help: "The enum's access level: internal or public.")
    var access: Access = .internal

    /// `--access`.
    enum Access: String, ExpressibleByArgument, CaseIterable {
        case `internal`, `public`
        var option: SwiftRouteCodeOptions.Access { self == .public ? .public : .internal }
    }

    func run() throws {
        let table: RouteTable
        do { table = try RouteTable.load(contentsOf: routes) } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(1)
        }
        let source = URL(fileURLWithPath: routes).lastPathComponent
        var command =
            "junction codegen \(source) --swift \(swift == "-" ? "-" : URL(fileURLWithPath: swift).lastPathComponent)"
        if typeName != "Routes" { command += " --type-name \(typeName)" }
        if access != .internal { command += " --access \(access.rawValue)" }
        let code: String
        do {
            code = try SwiftRouteCode.generate(
                table, source: source,
                options: SwiftRouteCodeOptions(typeName: typeName, access: access.option, command: command))
        } catch {
            printError("\(routes): error: \(error.message)")
            throw ExitCode(1)
        }
        if swift == "-" {
            print(code, terminator: "")
            return
        }
        do { try AtomicFile.write(Array(code.utf8), to: swift) } catch {
            printError("codegen: cannot write \(swift): \(error)")
            throw ExitCode(2)
        }
    }
}
