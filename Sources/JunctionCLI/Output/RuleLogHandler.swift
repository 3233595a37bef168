import Foundation
import Logging

/// Writes the rules' `print` and `log.*` lines to standard error as `lua info: text`.
struct RuleLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        FileHandle.standardError.write(Data("lua \(event.level): \(event.message)\n".utf8))
    }
}
