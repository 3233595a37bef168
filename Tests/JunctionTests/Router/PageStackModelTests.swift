import Junction
import JunctionPresenterTesting
import Testing

/// Random sessions against the page stack. After every operation: a shadow stack rebuilt
/// only from the presenter's transitions equals the router's, and every page that left
/// has given its opener exactly one result and `didClose` exactly one report, while every
/// page still open has given none.
@MainActor
@Suite struct PageStackModelTests {
    /// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// A presenter that keeps the shadow up to date.
    final class ShadowPresenter: Presenter {
        var shadow = ReferenceScreen()
        func apply(_ transition: Transition, animated: Bool, completion: @escaping @MainActor () -> Void) {
            shadow.show(transition)
            completion()
        }
    }

    static let urls = [
        "myapp://home", "myapp://moments/1", "myapp://video/capture", "myapp://address/pick", "myapp://login",
        "myapp://user/5", "myapp://checkout", "https://example.org/page",
        // singleTop, with a back stack when the link comes from outside; singleTask; navigation by URL.
        "myapp://order/AB123456", "myapp://order/CD654321", "myapp://orders", "myapp://tab/1", "myapp://tab/5",
        "myapp://back?count=2", "myapp://back?to=home", "myapp://back?count=1&then=myapp://moments/4",
    ]

    @Test(arguments: 0..<24)
    func randomSessionsKeepTheStackAndTheResultsTrue(seed: Int) async throws {
        var random = Generator(state: UInt64(seed) &* 7_919 &+ 1)
        let presenter = ShadowPresenter()
        let router = try RouterFixture.router(presenter: presenter)
        let results = Box<[Int: Int]>([:])  // open number → results received
        var pageOfOpen: [Int: PageID] = [:]
        var opens = 0
        let closings = Box<[PageID: Int]>([:])  // page → didClose calls
        router.didClose = { closings.value[$0.page.id, default: 0] += 1 }

        for _ in 0..<60 {
            switch random.next(10) {
            case 0...3:
                opens += 1
                let number = opens
                let style = [PresentationStyle.push, .present, .replace, .root][random.next(4)]
                let url = Self.urls[random.next(Self.urls.count)]
                let source: RequestSource = random.next(3) == 0 ? .push : .internal
                let opening = await router.open(url, style: style, source: source) { _ in
                    results.value[number, default: 0] += 1
                }
                switch opening {
                case .opened(let page), .reused(let page), .handedOver(_, let page?), .gated(_, .opened(let page)):
                    pageOfOpen[number] = page.id
                case .navigated, .answered, .failed, .handedOver, .gated:
                    #expect(results.value[number, default: 0] == 1, "seed \(seed): \(url) reports at once")
                }
            case 4:
                let before = router.pages.map(\.id)
                let reached = router.back()
                #expect(
                    router.pages.map(\.id) == (reached == nil ? before : Array(before.dropLast())), "seed \(seed): back"
                )
            case 5:
                let before = router.pages.map(\.id)
                let count = 1 + random.next(3)
                let reached = router.back(count: count)
                #expect(
                    router.pages.map(\.id) == (reached == nil ? before : Array(before.dropLast(count))),
                    "seed \(seed): back(count:)")
                #expect((reached == nil) == (before.count <= count), "seed \(seed): back(count:)")
            case 6:
                let before = router.pages
                let name = ["home", "moments", "video.capture", "login"][random.next(4)]
                let reached = router.back(to: name)
                let expected = before.lastIndex { $0.name == name }.map { Array(before[...$0]) } ?? before
                #expect(router.pages.map(\.id) == expected.map(\.id), "seed \(seed): back(to:)")
                #expect(
                    reached?.id == expected.last?.id || reached == nil && expected.count == before.count, "seed \(seed)"
                )
            case 7:
                let before = router.pages
                if let index = before.indices.randomElement(using: &random) {
                    let finished = router.finish(before[index].id, with: RouteResult.ok(random.next(100)))
                    let canRemove = index > 0 || (before.count == 1 && router.tabs.count <= 1)
                    #expect(finished == canRemove, "seed \(seed): finish")
                    #expect(
                        router.pages.map(\.id) == (finished ? Array(before[..<index]) : before).map(\.id),
                        "seed \(seed): finish")
                }
            case 8:
                if random.next(4) == 0 {
                    try await router.setTabs(["myapp://home", "myapp://moments/2"])
                } else {
                    router.selectTab(random.next(3))
                }
            default:
                let before = router.pages
                if let index = before.indices.randomElement(using: &random) {
                    presenter.shadow.userRemoves(before[index].id)
                    let removed = router.pageWasRemoved(before[index].id)
                    #expect(removed == (index > 0), "seed \(seed): pageWasRemoved")
                    #expect(
                        router.pages.map(\.id) == (removed ? Array(before[..<index]) : before).map(\.id), "seed \(seed)"
                    )
                }
            }
            #expect(presenter.shadow.visible == router.pages.map { $0.id }, "seed \(seed)")
            let open = Set(presenter.shadow.tabs.flatMap { $0 } + presenter.shadow.modals.flatMap { $0 })
            for (number, id) in pageOfOpen {
                #expect(
                    results.value[number, default: 0] == (open.contains(id) ? 0 : 1),
                    "seed \(seed): open \(number) (\(id))")
                #expect(
                    closings.value[id, default: 0] == (open.contains(id) ? 0 : 1),
                    "seed \(seed): didClose of open \(number) (\(id))")
            }
            #expect(results.value.values.allSatisfy { $0 <= 1 }, "seed \(seed)")
        }
    }

    /// A reference the result callbacks share.
    final class Box<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}

extension PageStackModelTests.Generator: RandomNumberGenerator {
    mutating func next() -> UInt64 { UInt64(truncatingIfNeeded: next(Int.max)) }
}
