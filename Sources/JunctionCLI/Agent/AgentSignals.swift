import Dispatch
import Foundation

/// SIGINT and SIGTERM end the agent with status 0: everything it persisted is already
/// durable (the store writes by rename) and every line printed is written unbuffered, so
/// there is nothing to finish.
enum AgentSignals {
    /// Installs the handlers; keep the sources alive as long as they should act.
    static func exitOnInterrupt() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { exit(0) }
            source.resume()
            return source
        }
    }
}
