import Testing

import JunctionCore
import JunctionLua

/// A session's `req` is the request last set; setting that same request again changes
/// nothing, so a caller sets the request before every evaluation and keeps no count of
/// what it set.
@Suite struct RuleSessionRequestTests {
    /// A URL whose query has 8,000 items: parsing it is charged about one instruction a byte.
    static let url = "myapp://r/1?" + (1...8_000).map { "k\($0)=v\($0)" }.joined(separator: "&")

    static let source = """
        interceptor { name = "query", all = true, run = function(req, ctx) return respond(req.query.k1) end }
        """

    static func request() throws -> RuleRequest {
        let table = try RouteTable(routes: [Route(name: "r", pattern: "myapp://r/:n")])
        let match = try #require(try table.match(url) as RouteMatch?)
        return RuleRequest(match: match, request: RouteRequest(url))
    }

    /// The instructions of three evaluations in one session: with `first`, with `first`
    /// set again, then with `other`.
    static func instructions(first: RuleRequest, other: RuleRequest) throws -> [Int] {
        let engine = try RuleEngine(
            sources: [RuleSource(name: "query.lua", text: source)],
            limits: SandboxLimits(
                instructions: 1_000_000, decisionInstructions: 10_000_000, decisionTime: .seconds(120)))
        let function = engine.declarations.interceptors[0].function
        return try engine.withSession(context: .empty) { session in
            Result { () throws(LuaError) in
                var counts: [Int] = []
                for request in [first, first, other] {
                    session.setRequest(request)
                    let result = try session.evaluate(declared: function)
                    #expect(result.value == ["verdict": "respond", "value": "v1"])
                    counts.append(result.instructions)
                }
                return counts
            }
        }.get()
    }

    /// The query is parsed (and charged) once per request: setting the same request again
    /// keeps what `req` has read, while a request built alike is a new one.
    @Test func settingTheSameRequestAgainKeepsWhatReqHasRead() throws {
        let request = try Self.request()
        let parse = Self.url.utf8.count - 1_000  // the parse, less one count interval
        let counts = try Self.instructions(first: request, other: try Self.request())
        #expect(counts[0] >= parse, "\(counts)")
        #expect(counts[1] < 1_000, "\(counts)")
        #expect(counts[2] >= parse, "\(counts)")
        let copy = request
        let alike = try Self.request()
        #expect(copy.isIdentical(to: request) && !alike.isIdentical(to: request))
    }
}
