/// A verdict while it is in Lua: a table whose ``kind`` field says which verdict it is,
/// with a field for each of its values.
///
/// This is the one place the table's names are spelled. The prelude's verdict
/// constructors (`Prelude/rule_api.lua`) are given them when a state is built, as
/// `host.verdict`, a table from each name's ``Name/handle`` to its ``Name/spelling``; and
/// ``Verdict/init(_:rule:)`` reads a rule's result by them.
enum VerdictTable {
    /// A name in a verdict table: a field's key, or a value of the ``kind`` field.
    struct Name {
        /// What `rule_api.lua` asks for the name by: its key in `host.verdict`.
        let handle: StaticString
        /// The name as it is in the table.
        let spelling: StaticString

        /// ``spelling`` as a Swift string, for looking a field up.
        var key: String { spelling.description }

        /// Whether `text` is this name: lets a `switch` over a string match names.
        static func ~= (name: Self, text: String) -> Bool {
            name.spelling.withUTF8Buffer { text.utf8.elementsEqual($0) }
        }
    }

    // MARK: - Fields

    /// The field that says which verdict the table is: one of the kinds below.
    static let kind = Name(handle: "kind", spelling: "verdict")
    /// The URL of `redirect` and `gate`.
    static let url = Name(handle: "url", spelling: "url")
    /// The parameters of `redirect` and `rewrite`.
    static let params = Name(handle: "params", spelling: "params")
    /// The reason of `reject`.
    static let reason = Name(handle: "reason", spelling: "reason")
    /// The status code of `reject`, when it has one.
    static let code = Name(handle: "code", spelling: "code")
    /// Whether `gate` runs the request again once the gate finishes.
    static let resume = Name(handle: "resume", spelling: "resume")
    /// The answer of `respond`.
    static let value = Name(handle: "value", spelling: "value")
    /// Whether `redirect` carries the request's query onto its URL, when it does.
    static let keepQuery = Name(handle: "keep_query", spelling: "keep_query")

    // MARK: - Kinds

    /// `redirect(url [, params] [, { keep_query = true }])`.
    static let redirect = Name(handle: "redirect", spelling: "redirect")
    /// `reject(reason [, code])`.
    static let reject = Name(handle: "reject", spelling: "reject")
    /// `gate(url [, { resume = … }])`.
    static let gate = Name(handle: "gate", spelling: "gate")
    /// `rewrite{ params = … }`.
    static let rewrite = Name(handle: "rewrite", spelling: "rewrite")
    /// `next()`.
    static let next = Name(handle: "next", spelling: "next")
    /// `respond(value)`.
    static let respond = Name(handle: "respond", spelling: "respond")

    /// Every name above, by index from 0, and `nil` past the last. A switch, not an
    /// array: the prelude's table of names is built where Lua may raise, and a switch over
    /// literals holds no Swift reference.
    static func name(at index: Int) -> Name? {
        switch index {
        case 0: kind
        case 1: url
        case 2: params
        case 3: reason
        case 4: code
        case 5: resume
        case 6: value
        case 7: redirect
        case 8: reject
        case 9: gate
        case 10: rewrite
        case 11: next
        case 12: respond
        case 13: keepQuery
        default: nil
        }
    }
}
