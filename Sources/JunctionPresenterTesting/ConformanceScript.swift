import Junction

/// The suite's checks: one per kind of transition, opens queued without waiting, and
/// seeded random sessions.
@MainActor
struct ConformanceScript {
    let name: String
    let run: @MainActor (ConformanceSession) async -> Void

    static let all: [ConformanceScript] = [
        ConformanceScript(name: "push and pop") { session in
            await session.open("root")
            await session.open("page")
            await session.open("page")
            session.router.back()
            await session.settle(after: "back")
            session.router.back(count: 1)
            await session.settle(after: "back(count: 1)")
        },
        ConformanceScript(name: "present and dismiss") { session in
            await session.open("root")
            await session.open("sheet")
            await session.open("page")
            await session.open("sheet")
            session.router.back()
            await session.settle(after: "back from a sheet's root")
            session.router.back(count: 2)
            await session.settle(after: "back(count: 2) through a sheet")
        },
        ConformanceScript(name: "replace and new root") { session in
            await session.open("root")
            await session.open("page")
            await session.open("swap")
            await session.open("sheet")
            await session.open("root")
            if let only = session.router.top, session.router.pages.count == 1 {
                session.router.finish(only.id, with: .ok())
                await session.settle(after: "finish the only page")
            }
        },
        ConformanceScript(name: "tabs") { session in
            do {
                try await session.router.setTabs(["conformance://root/100", "conformance://root/101"])
            } catch {
                session.fail("setTabs: \(error)")
                return
            }
            await session.settle(after: "setTabs")
            await session.open("page")
            session.router.selectTab(1)
            await session.settle(after: "selectTab(1)")
            await session.open("sheet")
            session.router.selectTab(0)
            await session.settle(after: "selectTab(0) over a sheet")
        },
        ConformanceScript(name: "queued opens") { session in
            await session.open("root")
            for route in ["page", "page", "sheet", "page", "swap", "page"] { session.startOpen(route) }
            await session.settle(after: "six opens started without waiting")
            session.router.back(count: 3)
            await session.settle(after: "back(count: 3)")
        },
    ]

    /// Random opens (some started without waiting), backs and finishes.
    static func randomSession(_ session: ConformanceSession, seed: Int, steps: Int) async {
        var random = SeededRandom(seed: UInt64(seed))
        await session.open("root")
        for step in 0..<steps {
            switch random.next(8) {
            case 0...2: await session.open(["page", "page", "sheet", "swap"][random.next(4)])
            case 3: session.startOpen(["page", "sheet"][random.next(2)])
            case 4:
                session.router.back()
                await session.settle(after: "step \(step): back")
            case 5:
                session.router.back(count: 1 + random.next(3))
                await session.settle(after: "step \(step): back(count:)")
            case 6:
                let pages = session.router.pages
                if !pages.isEmpty {
                    session.router.finish(pages[random.next(pages.count)].id, with: .ok(step))
                    await session.settle(after: "step \(step): finish")
                }
            default:
                await session.settle(after: "step \(step)")
            }
        }
        await session.settle(after: "the end")
    }
}

/// SplitMix64: the same sessions for the same seed.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
