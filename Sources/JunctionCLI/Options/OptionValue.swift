import ArgumentParser

/// A value an option takes, read from its text by ``init(parsing:)``, which says why it
/// refuses a text.
///
/// Commands declare such an option with `transform: T.init(parsing:)`; ArgumentParser then
/// answers a refused text with `Error: The value 'TEXT' is invalid for '--option <name>':
/// REASON`, the usage, and exit status 64. `ExpressibleByArgument` comes with it
/// (`init?(argument:)`, which cannot carry the reason), so the type is an argument wherever
/// ArgumentParser asks for one.
protocol OptionValue: ExpressibleByArgument, Sendable {
    /// Reads `text`.
    /// - Throws: ``OptionValueError`` saying what `text` is not.
    init(parsing text: String) throws(OptionValueError)
}

extension OptionValue {
    /// ``init(parsing:)`` without the reason.
    init?(argument: String) {
        guard let value = try? Self(parsing: argument) else { return nil }
        self = value
    }
}
