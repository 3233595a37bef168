internal import Foundation
public import JunctionCore

extension RouteTable {
    /// Loads a route table from a YAML or JSON file.
    ///
    /// ```yaml
    /// options: { hostAsPath: auto, plusAsSpace: true, caseSensitive: true }
    /// routes:
    ///   - name: user.profile
    ///     pattern: myapp://user/:id
    ///     params: { id: int, tab: { type: string, default: posts } }
    /// ```
    /// - Parameter path: The file's path; diagnostics name it as given.
    /// - Returns: The validated table.
    /// - Throws: `RouteTableError` with every problem as `FILE:LINE:COLUMN`.
    public static func load(contentsOf path: String) throws(RouteTableError) -> RouteTable {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RouteTableError([Diagnostic(.error, "cannot read \(path): \(error.localizedDescription)")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RouteTableError([
                Diagnostic(.error, "not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1))
            ])
        }
        return try load(text: text, file: path)
    }

    /// Loads a route table from YAML or JSON text.
    /// - Parameters:
    ///   - text: The table.
    ///   - file: The name diagnostics give the text.
    /// - Returns: The validated table.
    /// - Throws: `RouteTableError` with every problem as `FILE:LINE:COLUMN`.
    public static func load(text: String, file: String) throws(RouteTableError) -> RouteTable {
        var loader = RouteTableLoader(file: file)
        let (options, routes) = loader.load(text: text)
        var builder = RouteTableBuilder(options: options)
        for route in routes { builder.add(route) }
        let table: RouteTable
        do {
            table = try builder.build()
        } catch {
            throw RouteTableError(Self.inFileOrder(loader.diagnostics + error.diagnostics))
        }
        guard loader.diagnostics.isEmpty else { throw RouteTableError(Self.inFileOrder(loader.diagnostics)) }
        return table
    }

    private static func inFileOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics.filter { seen.insert($0).inserted }.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            if let x, let y, x.line != y.line || x.column != y.column {
                return (x.line, x.column) < (y.line, y.column)
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
