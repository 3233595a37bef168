public import JunctionCore

extension RuleTestCase {
    /// A bundle's tests as canonical JSON: an array of tests in order, each with its YAML's
    /// keys and where it is written; a key at its default (`source` internal, an empty
    /// `context` or `params`) is left out.
    ///
    /// ```json
    /// [{"expect":{"gate":"myapp://login"},"location":"tests/login.yaml:2:5","name":"guests log in","open":"myapp://orders"}]
    /// ```
    ///
    /// `expect` has the YAML's keys, with `redirect: none` as `"no_redirect":true`, and
    /// `fails` as `true` or a list; `"respond":null` expects the answer `nil`.
    /// - Parameters:
    ///   - tests: The tests.
    ///   - directory: The bundle's folder: locations inside it are written relative to it.
    /// - Returns: The UTF-8 bytes.
    /// - Throws: `CanonicalJSONError` for a value JSON cannot hold (NaN, infinity).
    public static func canonicalJSON(_ tests: [RuleTestCase], relativeTo directory: String? = nil)
        throws(CanonicalJSONError) -> [UInt8]
    {
        try CanonicalJSON.encode(.array(tests.map { $0.canonicalJSONValue(relativeTo: directory) }), file: "tests.json")
    }

    /// Reads tests from their ``canonicalJSON(_:relativeTo:)``.
    /// - Parameters:
    ///   - bytes: The JSON.
    ///   - file: The name errors give it.
    ///   - directory: The folder the locations' files are put back inside.
    ///   - manifest: The bundle's manifest: a test's source must be one of its
    ///     ``BundleManifest/knownSources``, and its context fit its ``BundleManifest/context``.
    ///   - limits: What the JSON reader accepts at most.
    /// - Returns: The tests, in order.
    /// - Throws: `CanonicalJSONError` with the path of the first problem (`[3].expect.code`).
    public static func decode(
        canonicalJSON bytes: [UInt8], file: String = "tests.json", directory: String? = nil,
        manifest: BundleManifest? = nil, limits: CanonicalJSONLimits = .default
    ) throws(CanonicalJSONError) -> [RuleTestCase] {
        let value = try CanonicalJSON.decode(bytes, file: file, limits: limits)
        guard case .array(let items) = value else {
            throw CanonicalJSONObject.mismatch(value, expected: "an array of tests", at: "", file: file)
        }
        var tests: [RuleTestCase] = []
        var names: Set<[String]> = []
        for (index, item) in items.enumerated() {
            let test = try RuleTestCase(
                canonicalJSON: item, at: "[\(index)]", file: file, directory: directory, manifest: manifest)
            // Names are unique within a test file, as its YAML loader requires.
            guard names.insert([test.location.file, test.name]).inserted else {
                throw CanonicalJSONError(
                    file: file, place: "[\(index)].name",
                    message: "a test named \"\(ContextSchema.shown(test.name))\" is already in \(test.location.file)")
            }
            tests.append(test)
        }
        return tests
    }

    private func canonicalJSONValue(relativeTo directory: String?) -> RuleValue {
        var fields: [String: RuleValue] = [
            "name": .string(name), "open": .string(open), "expect": expectation.canonicalJSONValue,
            "location": location.canonicalJSONValue(relativeTo: directory),
        ]
        if source != "internal" { fields["source"] = .string(source) }
        if context != [:] { fields["context"] = context }
        if params != [:] { fields["params"] = params }
        return .table(fields)
    }

    private init(
        canonicalJSON value: RuleValue, at path: String, file: String, directory: String?, manifest: BundleManifest?
    ) throws(CanonicalJSONError) {
        var object = try CanonicalJSONObject(value, at: path, file: file, what: "a test")
        name = try object.requiredString("name")
        open = try object.requiredString("open")
        source = try object.string("source") ?? "internal"
        if let message = manifest?.unknownSourceMessage(source) { throw object.error("source", message) }
        context = object.value("context") ?? [:]
        guard case .table(let fields) = context else {
            throw CanonicalJSONObject.mismatch(
                context, expected: "an object", at: object.path(of: "context"), file: file)
        }
        // Typed by the manifest's schema, as the YAML loader types it.
        if let problem = manifest?.context?.validate(ContextSnapshot(fields)).first {
            throw object.error("context", problem.description)
        }
        params = object.value("params") ?? [:]
        if case .table = params {
        } else {
            throw CanonicalJSONObject.mismatch(params, expected: "an object", at: object.path(of: "params"), file: file)
        }
        guard var expect = try object.object("expect", what: "an expectation") else {
            throw object.error(at: path, "missing \"expect\"")
        }
        if object.value("expect") == [:] { throw object.error("expect", "says nothing to check") }
        expectation = try Expectation(canonicalJSON: &expect)
        location = try SourceLocation(
            canonicalJSON: try object.required("location"), at: object.path(of: "location"), file: file,
            directory: directory)
        try object.finish()
    }
}
