internal import Foundation
public import JunctionCore
public import JunctionLua
public import Logging

extension RuleBundle {
    /// Loads and compiles a bundle folder.
    /// - Parameters:
    ///   - directory: The bundle's folder.
    ///   - limits: The sandbox's budgets for its rules.
    ///   - logger: Receives the rules' `print` and `log.*` output.
    ///   - coverage: Whether the bundle's engines record which lines of its rules run
    ///     (read with ``RuleEnginePool/coverage``, for `junction test --coverage`).
    /// - Returns: The bundle.
    /// - Throws: `BundleError` listing every problem as `FILE:LINE:COLUMN` (or `FILE:LINE`
    ///   for Lua): no such directory, a missing or invalid manifest, route table or test file
    ///   (a test's context is checked by the manifest's `context:`, its source by its
    ///   `sources:`), a rule that does not compile or fails while loading, state a rule
    ///   would keep between evaluations.
    public static func load(
        directory: String, limits: SandboxLimits = SandboxLimits(), logger: Logger = Logger(label: "junction.lua"),
        coverage: Bool = false
    ) throws(BundleError) -> RuleBundle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            let what = FileManager.default.fileExists(atPath: directory) ? "not a directory" : "no such directory"
            throw BundleError([
                Diagnostic(
                    .error, "\(what); give the bundle's folder, the one with manifest.yaml and routes.yaml",
                    at: SourceLocation(file: directory, line: 1, column: 1))
            ])
        }
        /// `name` inside the bundle, as the caller named the bundle (paths in messages
        /// stay relative when the bundle's was).
        func inside(_ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }

        /// The file's text, or `nil` with a diagnostic in `list`.
        func text(at path: String, into list: inout [Diagnostic]) -> String? {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
            else {
                list.append(
                    Diagnostic(
                        .error, "cannot read the file as UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1)
                    ))
                return nil
            }
            return text
        }

        var sources: [RuleSource] = []
        var sourceProblems: [Diagnostic] = []
        let listing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in listing.filter({ $0.hasSuffix(".lua") }).sorted() {
            if let source = text(at: inside(name), into: &sourceProblems) {
                sources.append(RuleSource(name: name, text: source))
            }
        }
        // The rules compile meanwhile; problems are still listed in the order of the files.
        return try assemble(
            directory: directory, sources: sources, limits: limits, logger: logger, coverage: coverage
        ) {
            var problems: [Diagnostic] = []
            /// The first of `names` that exists, read; a diagnostic when none does.
            func read(_ names: [String], what: String) -> (path: String, text: String)? {
                for name in names {
                    let path = inside(name)
                    guard FileManager.default.fileExists(atPath: path) else { continue }
                    return text(at: path, into: &problems).map { (path, $0) }
                }
                problems.append(
                    Diagnostic(
                        .error, "the bundle has no \(names.joined(separator: " or ")) (\(what))",
                        at: SourceLocation(file: directory, line: 1, column: 1)))
                return nil
            }

            var manifest: BundleManifest?
            if let (path, text) = read(
                ["manifest.yaml", "manifest.yml", "manifest.json"], what: "its name and version")
            {
                do throws(BundleError) { manifest = try BundleManifest.load(text: text, file: path) } catch {
                    problems += error.diagnostics
                }
            }
            var routes: RouteTable?
            if let (path, text) = read(["routes.yaml", "routes.yml", "routes.json"], what: "its route table") {
                do throws(RouteTableError) { routes = try RouteTable.load(text: text, file: path) } catch {
                    problems += error.diagnostics
                }
            }
            problems += sourceProblems

            let testsFolder = inside("tests")
            let testFiles = ((try? FileManager.default.contentsOfDirectory(atPath: testsFolder)) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                .map { testsFolder + "/" + $0 }

            var tests: [RuleTestCase] = []
            for path in testFiles {
                guard let source = text(at: path, into: &problems) else { continue }
                do throws(BundleError) {
                    tests += try RuleTestCase.load(text: source, file: path, manifest: manifest)
                } catch { problems += error.diagnostics }
            }
            return ReadParts(
                manifest: manifest, routes: routes, testFiles: testFiles, tests: tests, problems: problems)
        }
    }
}
