@testable import Junction
import Testing

/// What the caller's `any Sendable` parameters become, and how declared types convert.
@Suite struct ParameterBindingTests {
    struct Model: Sendable, Equatable { let id: Int }

    @Test(
        arguments: [
            ("text", "hi" as any Sendable, RuleValue?.some("hi")),
            ("int", 42, .some(.int(42))),
            ("int64", Int64.max, .some(.int(.max))),
            ("uint8", UInt8(7), .some(.int(7))),
            ("uint64 too big", UInt64.max, nil),
            ("bool", true, .some(.bool(true))),
            ("double", 2.5, .some(.double(2.5))),
            ("float", Float(0.5), .some(.double(0.5))),
            ("substring", "abc".dropFirst(), .some("bc")),
            ("array", ["a", "b"], .some(["a", "b"])),
            ("nested", ["k": [1, 2]] as [String: [Int]], .some(["k": [1, 2]])),
            ("rule value", RuleValue.table(["x": 1]), .some(["x": 1])),
            ("model", Model(id: 1), nil),
            ("array with a model", [Model(id: 1)], nil),
            ("dictionary with a model", ["m": Model(id: 1)], nil),
        ] as [(String, any Sendable, RuleValue?)])
    func sendableValuesBridgeToRuleValuesOrStayObjects(label: String, value: any Sendable, expected: RuleValue?) {
        let (values, objects) = SendableBridge.split(["p": value])
        #expect(values["p"] == expected, "\(label)")
        #expect((objects["p"] != nil) == (expected == nil), "\(label)")
    }

    @Test func nilOptionalsAreDropped() {
        let missing: Int? = nil
        let present: Int? = 3
        let (values, objects) = SendableBridge.split(["missing": missing, "present": present])
        #expect(values == ["present": .int(3)])
        #expect(objects.isEmpty)
    }

    @Test(
        arguments: [
            (RuleValue.string("42"), ParameterType.int, RuleValue?.some(.int(42))),
            ("4x", .int, nil),
            (.int(3), .double, .some(.double(3))),
            (.double(3), .int, .some(.int(3))),
            (.double(3.5), .int, nil),
            (.int(1), .bool, .some(.bool(true))),
            (.int(2), .bool, nil),
            ("yes", .bool, .some(.bool(true))),
            (.int(7), .string, .some("7")),
            (.bool(false), .string, .some("false")),
            ("123E4567-E89B-12D3-A456-426614174000", .uuid, .some("123e4567-e89b-12d3-a456-426614174000")),
            ("nope", .uuid, nil),
            (["a"], .string, nil),
            (.table([:]), .int, nil),
            (.bytes([0xff]), .string, nil),
        ] as [(RuleValue, ParameterType, RuleValue?)])
    func declaredTypesConvertWhatCanBeConverted(value: RuleValue, type: ParameterType, expected: RuleValue?) {
        #expect(ParameterBinding.convert(value, to: type) == expected)
    }

    @Test func routeParametersReadTypedValuesAndObjects() {
        let params = RouteParameters(
            values: ["id": 7, "ratio": 0.5, "on": true, "name": "a"], objects: ["model": Model(id: 9)])
        #expect(params.int("id") == 7 && params.double("id") == 7 && params.string("id") == nil)
        #expect(params.double("ratio") == 0.5 && params.int("ratio") == nil)
        #expect(params.bool("on") == true && params.string("name") == "a")
        #expect(params.object("model", as: Model.self) == Model(id: 9))
        #expect(params.object("model", as: String.self) == nil)
        #expect(params.description == #"{"id":7,"name":"a","on":true,"ratio":0.5} objects: model"#)
    }
}
