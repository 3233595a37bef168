import Foundation

/// Runs main-actor work to its end from the benchmark's own thread, the main one: the
/// harness calls its contenders synchronously there, and the main actor's jobs wait for
/// that thread — so it turns the main run loop, which runs them, until the work is done.
enum MainActorPump {
    /// What `body` returns, once it has run on the main actor.
    static func run<Value: Sendable>(_ body: @escaping @MainActor @Sendable () async -> Value) -> Value {
        precondition(Thread.isMainThread, "the pump turns the main run loop: call it on the main thread")
        let result = Result<Value>()
        Task { @MainActor in result.value = await body() }
        while true {
            if let value = MainActor.assumeIsolated({ result.value }) { return value }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
        }
    }

    /// Where the work leaves its value; read and written on the main thread only.
    @MainActor private final class Result<Value: Sendable>: Sendable {
        var value: Value?
    }
}
