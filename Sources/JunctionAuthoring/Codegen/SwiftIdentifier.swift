/// Swift names for route and parameter names: `user.profile` → `userProfile`,
/// `order-id` → `orderID`… kept simple: words split at anything not a letter or digit,
/// lower camel case, a leading digit prefixed, keywords escaped with backticks.
enum SwiftIdentifier {
    /// The lower-camel-case name for `text`, or `nil` when it has no letter or digit.
    static func lowerCamel(_ text: String, prefix: String) -> String? {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        guard let first = words.first else { return nil }
        var name = lowerFirst(first) + words.dropFirst().map(upperFirst).joined()
        if name.first!.isNumber { name = prefix + upperFirst(name) }
        return name
    }

    /// `name` as Swift writes it where a keyword would be read: `` `default` ``.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    private static func lowerFirst(_ word: String) -> String {
        // An all-capital word stays a word: `URL` → `url`, `IDs` → `iDs` is avoided.
        word == word.uppercased() ? word.lowercased() : word.prefix(1).lowercased() + word.dropFirst()
    }

    private static func upperFirst(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// Words Swift reserves in declarations and expressions.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "Type", "Protocol",
    ]
}
