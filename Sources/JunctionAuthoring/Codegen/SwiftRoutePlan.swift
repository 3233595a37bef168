import JunctionCore

/// What the generated function of one route takes and builds: its arguments, and the
/// URL of each way its optional groups can be filled.
struct SwiftRoutePlan {
    /// An argument of the function.
    struct Argument {
        /// The parameter's name in the URL.
        var name: String
        /// Its Swift label.
        var label: String
        var type: ParameterType
        /// Whether it may be left out (`nil`).
        var isOptional: Bool
        /// The declared default, for query parameters.
        var defaultValue: ParameterValue?
        /// Whether the pattern holds it (else it is a query item).
        var inPath: Bool
        var regex: String?
        var description: String?
        /// `*` and `**` are arguments without a name in the URL.
        var kind: Kind = .parameter

        enum Kind { case parameter, wildcard, catchAll }
    }

    /// One piece of a URL's path.
    enum Piece {
        /// Text already encoded.
        case literal(String)
        /// The argument's value, encoded as one segment (or, for `**`, as a path).
        case argument(String, Argument.Kind)
    }

    /// One way to fill the optional groups: which optional arguments it needs, and its path.
    struct Shape {
        var needs: Set<String>
        var pieces: [Piece]
    }

    let route: Route
    let identifier: String
    /// `scheme://host` or `scheme://` or, for a pattern of any scheme, `nil`.
    let origin: String?
    let arguments: [Argument]
    let shapes: [Shape]

    init(_ route: Route, structure: PatternStructure) throws(SwiftRouteCodeError) {
        self.route = route
        guard let identifier = SwiftIdentifier.lowerCamel(route.name, prefix: "route") else {
            throw SwiftRouteCodeError("route \"\(route.name)\": its name has no letter or digit to name a function by")
        }
        self.identifier = identifier
        if let scheme = structure.scheme {
            origin = structure.host.map { "\(scheme)://\(Self.encodedHost($0))" } ?? "\(scheme)://"
        } else {
            origin = nil
        }
        let declared = Dictionary(route.parameters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

        // Arguments in the order they appear in the fullest expansion.
        var arguments: [Argument] = []
        var seen: Set<String> = []
        var wildcards = 0
        var expansionNames: [[String]] = []
        var pieceLists: [[Piece]] = []
        for expansion in structure.expansions {
            var names: [String] = []
            var pieces: [Piece] = []
            var wildcardIndex = 0
            for segment in expansion {
                switch segment {
                case .constant(let text):
                    pieces.append(.literal(SwiftRouteEncoding.encoded(text)))
                case .parameter(let name, let type, let regex):
                    names.append(name)
                    pieces.append(.argument(name, .parameter))
                    if seen.insert(name).inserted {
                        arguments.append(
                            Argument(
                                name: name, label: "", type: type, isOptional: false, inPath: true, regex: regex,
                                description: declared[name]?.description))
                    }
                case .wildcard:
                    wildcardIndex += 1
                    let name = wildcardIndex == 1 ? "segment" : "segment\(wildcardIndex)"
                    wildcards = max(wildcards, wildcardIndex)
                    names.append("*" + name)
                    pieces.append(.argument("*" + name, .wildcard))
                    if seen.insert("*" + name).inserted {
                        arguments.append(
                            Argument(
                                name: "*" + name, label: name, type: .string, isOptional: false, inPath: true,
                                description: "The segment `*` stands for.", kind: .wildcard))
                    }
                case .catchAll:
                    names.append("**")
                    pieces.append(.argument("**", .catchAll))
                    if seen.insert("**").inserted {
                        arguments.append(
                            Argument(
                                name: "**", label: "rest", type: .string, isOptional: false, inPath: true,
                                description: "The path `**` stands for: segments separated by \"/\", each encoded.",
                                kind: .catchAll))
                    }
                }
            }
            expansionNames.append(names)
            pieceLists.append(pieces)
        }
        // A path argument every expansion holds is required; the others are optional.
        for index in arguments.indices where expansionNames.contains(where: { !$0.contains(arguments[index].name) }) {
            arguments[index].isOptional = true
        }
        // `**` matches zero segments too: an empty `rest` leaves it out.
        for index in arguments.indices where arguments[index].kind == .catchAll { arguments[index].isOptional = false }
        for declaration in route.parameters where !seen.contains(declaration.name) {
            arguments.append(
                Argument(
                    name: declaration.name, label: "", type: declaration.type,
                    isOptional: !declaration.isRequired && declaration.defaultValue == nil,
                    defaultValue: declaration.isRequired ? nil : declaration.defaultValue, inPath: false,
                    description: declaration.description))
        }
        // Labels: Swift names, told apart.
        var labels: [String: String] = [:]
        for index in arguments.indices where arguments[index].label.isEmpty {
            guard let label = SwiftIdentifier.lowerCamel(arguments[index].name, prefix: "p") else {
                throw SwiftRouteCodeError(
                    "route \"\(route.name)\": parameter \"\(arguments[index].name)\" has no letter or digit to name an argument by"
                )
            }
            arguments[index].label = label
        }
        for argument in arguments {
            if let other = labels[argument.label] {
                throw SwiftRouteCodeError(
                    "route \"\(route.name)\": parameters \"\(other)\" and \"\(argument.name)\" would both be the argument \(argument.label); rename one of them"
                )
            }
            labels[argument.label] = argument.name
        }
        self.arguments = arguments

        // One shape per set of optional arguments, the fullest first; of two expansions that
        // need the same arguments (a group of constants), the first — the shorter — is kept.
        let optional = Set(arguments.filter { $0.isOptional && $0.inPath }.map(\.name))
        var shapes: [Shape] = []
        for (names, pieces) in zip(expansionNames, pieceLists) {
            let needs = Set(names).intersection(optional)
            if !shapes.contains(where: { $0.needs == needs }) { shapes.append(Shape(needs: needs, pieces: pieces)) }
        }
        self.shapes = shapes.enumerated().sorted { a, b in
            a.element.needs.count != b.element.needs.count
                ? a.element.needs.count > b.element.needs.count : a.offset < b.offset
        }.map(\.element)
    }

    /// The argument named `name` in the URL.
    func argument(_ name: String) -> Argument { arguments.first { $0.name == name }! }

    private static func encodedHost(_ host: String) -> String {
        // A host is a registered name: its letters, digits, `-` and `.` as written.
        host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
            ? host : SwiftRouteEncoding.encoded(host)
    }
}
