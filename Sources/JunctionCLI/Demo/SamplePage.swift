import Junction

/// A page of the sample app: what a view controller would show, as a title.
struct SamplePage: CustomStringConvertible {
    let title: String
    var description: String { title }
}
