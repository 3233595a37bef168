import Foundation
import Testing

/// `junction demo`: the scripted session of the sample app, pinned by a golden file.
@Suite struct DemoCommandTests {
    @Test func theSessionPrintsTheSameStepsEveryRun() throws {
        let result = try CLIRunner.run(["demo"], in: CLIRunner.repositoryRoot)
        #expect(result.status == 0, "\(result.stderr)")
        try CLIRunner.expectSnapshot(result.stdout, named: "demo.txt")
    }

    @Test func theSessionShowsEachScenario() throws {
        let output = try CLIRunner.run(["demo"], in: CLIRunner.repositoryRoot).stdout
        for line in [
            "decision: myapp://moments/7 → gate myapp://login, then resume  [by login (policies.lua:4)]",
            "result of address.picker #4 → moments: ok \"221B Baker Street\"",
            "presenter: pop to moments #3, removing video.publish #7, video.edit #6, video.capture #5",
            "… invoke returned {\"shared\":\"Big sale!\",\"via\":\"wechat\"}",
            "https dispatcher: a web view for https://m.shop.example.com/orders/AB123456",
            "stack: home #1 “Home” › moments #3 “Moment 7” › upgrade #11 “Please update the app (link: myapp://newfeature/x)”",
            "flutter dispatcher: a Flutter view for flutter://moments/feed?tab=friends",
            "none more than once",
            "presenter: push orders #12 (not animated)",
            "presenter: renew order.detail #13 with myapp://order/AB123456",
            "result of order.detail #13 → push handler, second tap: cancelled",
            "result of wxmp://coupons/pick?order=AB123456 → orders: ok \"SAVE10\"",
            "presenter: select tab 1 (orders #16) {\"filter\":\"unpaid\"}",
        ] {
            #expect(output.contains(line), "missing: \(line)")
        }
    }

    @Test func aBundleThatDoesNotLoadExitsTwo() throws {
        let result = try CLIRunner.run(["demo", "--bundle", "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent:1:1: error: no such directory"))
    }
}
