import Junction
import Testing

/// Many tasks opening, invoking and registering at once: every result exactly once,
/// no registration lost (JLRoutes #81, TheRouter's ConcurrentModificationException).
@MainActor
@Suite struct RouterConcurrencyTests {
    @Test func concurrentOpensAndInvokesDeliverEveryResultExactlyOnce() async throws {
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        let log = ResultLog()
        // Separate tasks, each hopping to the main actor only to call the router; the
        // decisions themselves run in parallel off it.
        let tasks = (0..<200).map { i in
            Task { @MainActor () -> Bool in
                if i.isMultiple(of: 2) {
                    return await router.open("myapp://user/\(i)", onResult: log.callback("open \(i)")).page != nil
                }
                let value = try? await router.invoke("myapp://action/share", params: ["text": "\(i)"])
                guard case .table(let fields)? = value as? RuleValue else { return false }
                return fields["shared"] == .string("\(i)")
            }
        }
        var answers = 0
        for task in tasks where await task.value { answers += 1 }
        #expect(answers == 200)
        #expect(router.pages.count == 101)
        #expect(Set(router.pages.dropFirst().map { $0.params.int("id")! }) == Set(stride(from: 0, to: 200, by: 2)))
        #expect(log.entries.isEmpty)
        router.back(to: "home")
        #expect(log.entries.count == 100)
        #expect((0..<200).filter { $0.isMultiple(of: 2) }.allSatisfy { log.count("open \($0)") == 1 })
    }

    @Test func registeringWhileRequestsAreResolvedLosesNothing() async throws {
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        let opener = Task { @MainActor () -> [String] in
            var seen: [String] = []
            for i in 0..<150 {
                let opening = await router.open("myapp://user/\(i)")
                seen.append(opening.page != nil ? "opened" : opening.error?.code.description ?? "?")
            }
            return seen
        }
        let registrar = Task { @MainActor in
            for i in 0..<150 {
                router.register(page: "Extra\(i)") { TestPage($0) }
                if i.isMultiple(of: 3) {
                    router.removePage("ProfilePage")
                } else {
                    router.register(page: "ProfilePage") { TestPage($0) }
                }
                await Task.yield()
            }
            router.register(page: "ProfilePage") { TestPage($0) }
        }
        let outcomes = await opener.value
        await registrar.value
        #expect(outcomes.count == 150)
        #expect(Set(outcomes).isSubset(of: ["opened", "no target"]))
        #expect((0..<150).allSatisfy { router.isRegistered("Extra\($0)") })
        #expect(router.isRegistered("ProfilePage"))
        #expect(router.pages.count == 1 + outcomes.filter { $0 == "opened" }.count)
    }

    @Test func aFactoryMayRegisterWhileItIsCalled() async throws {
        let router = try RouterFixture.router()
        router.register(page: "home") { request in
            router.register(page: "ProfilePage") { TestPage($0) }
            router.removePage("home")
            return TestPage(request)
        }
        #expect(await router.open("myapp://home").page != nil)
        #expect(!router.isRegistered("home"))
        #expect(await router.open("myapp://user/1").page?.name == "user.profile")
    }

    @Test func resultCallbacksMayOpenAndGoBack() async throws {
        let router = try RouterFixture.router()
        await router.open("myapp://home")
        let log = ResultLog()
        await router.open("myapp://address/pick", style: .present) { result in
            log.callback("picker")(result)
            // A callback that changes the stack sees a consistent one.
            router.back()
        }
        await router.open("myapp://moments/1", onResult: log.callback("moments"))
        router.back(to: "home")
        #expect(log.lines == ["moments: cancelled", "picker: cancelled"])
        #expect(RouterFixture.names(router) == ["home"])
    }
}
