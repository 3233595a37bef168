import Testing

@testable import JunctionLua

/// The names of a verdict table, which the prelude is given by handle (`host.verdict`).
@Suite struct VerdictTableTests {
    private static var names: [VerdictTable.Name] {
        var names: [VerdictTable.Name] = []
        while let name = VerdictTable.name(at: names.count) { names.append(name) }
        return names
    }

    @Test func everyNameHasAHandleOfItsOwn() {
        let handles = Self.names.map { "\($0.handle)" }
        #expect(Set(handles).count == handles.count, "\(handles)")
    }

    @Test func theFieldsOfATableHaveKeysOfTheirOwn() {
        let fields = [
            VerdictTable.kind, VerdictTable.url, VerdictTable.params, VerdictTable.reason, VerdictTable.code,
            VerdictTable.resume, VerdictTable.value, VerdictTable.keepQuery,
        ].map(\.key)
        #expect(Set(fields).count == fields.count, "\(fields)")
        #expect(fields.allSatisfy { field in Self.names.contains { $0.key == field } })
    }

    @Test func aKindMatchesItsOwnSpellingOnly() {
        #expect(VerdictTable.reject ~= "reject")
        #expect(
            !(VerdictTable.reject ~= "rejected") && !(VerdictTable.reject ~= "rejec") && !(VerdictTable.reject ~= ""))
    }
}
