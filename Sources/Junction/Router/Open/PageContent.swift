/// What an app made itself for ``Router/open(_:content:params:exts:style:source:onResult:)``,
/// carried through gates on the main actor.
@MainActor
struct PageContent {
    let value: Any
    init(_ value: Any) { self.value = value }
}
