/// How a page sits on the stack.
public enum Presentation: String, Sendable, Hashable {
    /// The first page of a tab (or of the app without tabs).
    case root
    /// Pushed inside a navigation stack: a tab's or a modal's.
    case pushed
    /// Presented modally over everything: the first page of a new navigation stack.
    case presented
}
