import Testing

@testable import JunctionCore

/// `capturedText(named:)` is the bytes-keyed shortcut `req.params.NAME` takes: whenever it
/// answers, it must answer what `param(_:)` gives, and it must answer for a plain path
/// parameter (else the shortcut is never taken).
@Suite struct RuleRequestCapturedTextTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var url: String
        var declared: [ParameterDeclaration] = []
        var callerParams: [String: RuleValue] = [:]
        var rewrites: [String: RuleValue] = [:]
        var name: String
        /// Whether the shortcut answers.
        var answers: Bool
        var testDescription: String { "\(name) of \(url)" }
    }

    static let rows: [Row] = [
        Row(url: "myapp://item/42", name: "id", answers: true),
        Row(url: "myapp://item/caf%C3%A9", name: "id", answers: true),
        Row(url: "myapp://item/42?id=7", name: "id", answers: true),
        Row(url: "myapp://item/42", name: "i", answers: false),
        Row(url: "myapp://item/42", name: "idx", answers: false),
        Row(url: "myapp://item/42", name: "", answers: false),
        Row(url: "myapp://item/42", name: "d\u{E9}", answers: false),
        Row(url: "myapp://item/42", declared: [ParameterDeclaration("id", type: .int)], name: "id", answers: false),
        Row(
            url: "myapp://item/42", declared: [ParameterDeclaration("tab", type: .string, defaultValue: .string("a"))],
            name: "id", answers: false),
        Row(url: "myapp://item/42", callerParams: ["id": "9"], name: "id", answers: false),
        Row(url: "myapp://item/42", callerParams: ["other": "9"], name: "id", answers: false),
        Row(url: "myapp://item/42", rewrites: ["id": "8"], name: "id", answers: false),
    ]

    @Test(arguments: rows)
    func answersAsParamDoes(row: Row) throws {
        let table = try RouteTable(routes: [
            Route(name: "item", pattern: "myapp://item/:id", parameters: row.declared)
        ])
        let match = try #require(try table.match(row.url) as RouteMatch?)
        let request = RuleRequest(
            match: match, request: RouteRequest(row.url, params: row.callerParams), rewrites: row.rewrites)
        let text = Array(row.name.utf8).withUnsafeBytes { request.capturedText(named: $0) }
        #expect((text != nil) == row.answers)
        if let text { #expect(request.param(row.name) == .string(text)) }
    }
}
