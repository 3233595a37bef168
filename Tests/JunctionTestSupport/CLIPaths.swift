/// Where the repository is, for tests that read its files (`rules/example`, the README,
/// `Sources/`) or run its scripts.
public enum CLIPaths {
    /// The repository's root folder: three levels above this file.
    public static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()
}
