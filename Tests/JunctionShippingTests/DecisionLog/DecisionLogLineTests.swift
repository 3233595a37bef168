import Foundation
import JunctionAuthoring
import JunctionShipping
import JunctionTestSupport
import Testing

/// A decision log line keeps what the bundle lets it and nothing else: a secret in the
/// context, the query, the params, the fragment or the user information never reaches a
/// line unless the bundle declares it loggable; credential-like names never do.
@Suite struct DecisionLogLineTests {
    static let decider: Decider = {
        let bundle = try! RuleBundle.load(directory: CLIPaths.repositoryRoot + "/rules/example")
        return try! Decider(bundle: bundle)
    }()

    static let time = Date(timeIntervalSince1970: 1_795_000_000)

    static func line(
        _ url: String, source: RequestSource = .internal, params: [String: RuleValue] = [:],
        context: [String: RuleValue] = [:], policy: DecisionLogPolicy
    ) throws -> String {
        let decision = decider.decide(
            RouteRequest(url, params: params, source: source), context: ContextSnapshot(context))
        return try #require(
            DecisionLogLine.make(
                decision, context: ContextSnapshot(context), policy: policy, appVersion: "6.1.0", time: time))
    }

    static let secret = "S3CRET-7f3a"

    static let masking:
        [(name: String, url: String, params: [String: RuleValue], policy: DecisionLogPolicy, contains: [String])] = [
            (
                "a credential in the query is masked, other parameters kept",
                "myapp://moments/7?token=\(secret)&campaign=spring", [:], DecisionLogPolicy(),
                [#""url":"myapp://moments/7?token=masked&campaign=spring""#]
            ),
            (
                "user information and the fragment never leave",
                "https://user:\(secret)@m.shop.example.com/sale#access_token=\(secret)", [:], DecisionLogPolicy(),
                [#""url":"https://m.shop.example.com/sale""#]
            ),
            (
                "names the bundle masks or hashes",
                "myapp://moments/7?phone=\(secret)&uid=\(secret)", [:],
                DecisionLogPolicy(masked: ["phone"], hashed: ["uid"]),
                [#""url":"myapp://moments/7?phone=masked&uid=sha256%3A"#]
            ),
            (
                "a path parameter the bundle masks is masked in the path too",
                "myapp://user/\(secret)?tab=likes", [:], DecisionLogPolicy(masked: ["id", "name"]),
                [#""url":"myapp://user/masked?tab=likes""#]
            ),
            (
                "a path parameter the bundle hashes is hashed in the path",
                "myapp://user/\(secret)", [:], DecisionLogPolicy(hashed: ["id", "name"]),
                [#""url":"myapp://user/sha256%3A"#]
            ),
            (
                "credential-like params are masked, whatever the lists say",
                "myapp://moments/7", ["password": .string(secret), "Session-Id": .string(secret), "tab": "likes"],
                DecisionLogPolicy(hashed: ["password"]),
                [#""params":{"Session-Id":"masked","password":"masked","tab":"likes"}"#]
            ),
        ]

    @Test(arguments: masking)
    func masksWhatTheBundleDoesNotLetLeave(
        name: String, url: String, params: [String: RuleValue], policy: DecisionLogPolicy, contains: [String]
    ) throws {
        let line = try Self.line(url, params: params, policy: policy)
        #expect(!line.contains(Self.secret), "\(name): \(line)")
        for part in contains { #expect(line.contains(part), "\(name): \(line)") }
    }

    @Test func onlyTheContextKeysTheBundleListsAreLogged() throws {
        let context: [String: RuleValue] = [
            "app_version": "6.1.0", "user": ["id": 2, "age": 30], "device_id": .string(Self.secret),
        ]
        let none = try Self.line("myapp://moments/7", context: context, policy: DecisionLogPolicy())
        #expect(!none.contains("\"context\""))
        let some = try Self.line(
            "myapp://moments/7", context: context, policy: DecisionLogPolicy(context: ["app_version", "user.id"]))
        #expect(some.contains(#""context":{"app_version":"6.1.0","user":{"id":2}}"#), "\(some)")
        #expect(!some.contains(Self.secret))
        #expect(!some.contains("\"age\""))
    }

    @Test func theLineSaysWhatWasDecidedByWhichBundleWhereAndWhen() throws {
        let line = try Self.line("myapp://moments/7", source: .push, policy: DecisionLogPolicy())
        #expect(
            line
                == #"{"app_version":"6.1.0","bundle":"example@3","decision":{"gate":"myapp://login","outcome":"gate","route":"moments","rule":"group login (policies.lua:4)"},"kind":"decision","source":"push","time":"2026-11-18T11:06:40Z","url":"myapp://moments/7"}"#
        )
        let refused = try Self.line("myapp://user/settings", source: .push, policy: DecisionLogPolicy())
        #expect(refused.contains(#""cause":"not_exported","code":403"#), "\(refused)")
    }

    /// Refusals, gates, unmatched URLs and failures are always kept; opens by the sample.
    @Test(arguments: [
        ("myapp://moments/7", 0.99, true),  // a gate
        ("tp://nowhere", 0.99, true),  // unmatched
        ("myapp://home", 0.99, false),  // an open, drawn above the sample
        ("myapp://home", 0.05, true),  // an open, drawn below it
    ])
    func keepsEveryRefusalAndASampleOfOpens(url: String, draw: Double, kept: Bool) {
        let decision = Self.decider.decide(RouteRequest(url, source: .push))
        #expect(DecisionLogLine.keeps(decision, policy: DecisionLogPolicy(sample: 0.1), draw: draw) == kept)
        #expect(!DecisionLogLine.keeps(decision, policy: .off, draw: 0))
    }
}
