/// What the opener of a URL gets back, exactly once: a page's result when the page is
/// removed, a task's or a rule's answer, or why nothing opened.
///
/// ```swift
/// router.open("myapp://address/pick") { result in
///     if result.code == .ok, let address = result.data as? String { form.address = address }
/// }
/// ```
public struct RouteResult: Sendable, CustomStringConvertible {
    /// What kind of ending it was. An open set: apps may define their own codes
    /// (`RouteResult.Code(rawValue: 7)`); Junction's own are negative, `ok` is 0.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The number.
        public let rawValue: Int

        /// A code by number.
        /// - Parameter rawValue: The number; apps should use positive ones.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The page finished successfully, the task returned, or a rule responded.
        public static let ok = Code(rawValue: 0)
        /// The page was removed without a result (back, dismiss, replaced, a gate the
        /// user left).
        public static let cancelled = Code(rawValue: -1)
        /// A rule or the access check refused the request.
        public static let rejected = Code(rawValue: -2)
        /// Nothing took the URL: no route, fallback, dispatcher or undefined-route handler.
        public static let unmatched = Code(rawValue: -3)
        /// The request could not be carried out: a missing target or parameter, a page
        /// factory or task that threw.
        public static let failed = Code(rawValue: -4)

        /// `ok`, `cancelled`, `rejected`, `unmatched`, `failed`, or the number.
        public var description: String {
            switch self {
            case .ok: return "ok"
            case .cancelled: return "cancelled"
            case .rejected: return "rejected"
            case .unmatched: return "unmatched"
            case .failed: return "failed"
            default: return String(rawValue)
            }
        }
    }

    /// What kind of ending it was.
    public var code: Code
    /// A sentence for people, if any.
    public var message: String?
    /// The payload: the page's chosen value, the task's return value, a rule's `respond` value.
    public var data: (any Sendable)?

    /// A result.
    /// - Parameters:
    ///   - code: What kind of ending it was.
    ///   - message: A sentence for people.
    ///   - data: The payload.
    public init(_ code: Code, message: String? = nil, data: (any Sendable)? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// A successful result carrying `data`.
    /// - Parameter data: The payload.
    /// - Returns: An `ok` result.
    public static func ok(_ data: (any Sendable)? = nil) -> RouteResult { RouteResult(.ok, data: data) }

    /// The result of a page removed without one.
    public static let cancelled = RouteResult(.cancelled)

    /// `ok`, `cancelled: message`, `ok data`.
    public var description: String {
        var text = code.description
        if let message { text += ": " + message }
        if let data { text += " " + RouteResult.describe(data) }
        return text
    }

    /// A value as the demo and traces print it: rule values compactly, others as Swift does.
    static func describe(_ value: any Sendable) -> String {
        if let value = value as? RuleValue { return value.compactDescription }
        if let text = value as? String { return RuleValue.string(text).compactDescription }
        return String(describing: value)
    }
}
