/// A registered task: a function other modules call by URL.
enum TaskBody: Sendable {
    case sync(@Sendable (TaskRequest) throws -> (any Sendable)?)
    case async(@Sendable (TaskRequest) async throws -> (any Sendable)?)
}
