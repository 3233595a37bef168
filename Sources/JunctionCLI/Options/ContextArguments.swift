import Junction

/// The `--context key=value` values of `eval`, `diff` and `agent`, read by one parser
/// (``KeyValueArguments``), so the same argument is the same value whichever command
/// takes it.
///
/// Where the bundle declares a `context:` schema, each value is typed by its key's
/// declared type, as rule tests' `context:` is: `app_version=6.2` is the text `6.2` for a
/// `version` or `string` key, `hour=22` the integer 22 for an `int`; a value that is not of
/// its type, or a key the schema does not declare, is an error naming the option, the key
/// and what was expected. Without a schema, a value is typed as a plain YAML scalar is in
/// rule tests — `42` an integer, `6.2` a number, `true`/`false` booleans, `null` no value,
/// anything else text — and `"…"` (quoted) is always text.
struct ContextArguments: Sendable {
    /// The option's name, as messages say it.
    static let option = "--context"

    /// The arguments as given, `key=value` each.
    let arguments: [String]

    /// The arguments, checked for what needs no bundle: each is `key=value`, no part of a
    /// key empty.
    /// - Parameter arguments: The `--context` values.
    /// - Throws: The first argument that is not `key=value`, named.
    init(_ arguments: [String]) throws(KeyValueArguments.ParseError) {
        _ = try KeyValueArguments.split(arguments, option: Self.option)
        self.arguments = arguments
    }

    /// The values typed by `schema`, or as YAML types them without one.
    /// - Parameter schema: The bundle's `context:`, if it declares one.
    /// - Returns: The values, dotted keys nested.
    /// - Throws: The first value that does not fit, with its option, key and expected type.
    func values(schema: ContextSchema?) throws(KeyValueArguments.ParseError) -> [String: RuleValue] {
        try KeyValueArguments.parse(arguments, option: Self.option, schema: schema)
    }
}
