import Foundation
import JunctionTestSupport
import Testing

/// docs/router.md's UIKit presenter is the file Tests/DocsUIKitPresenter/UIKitPresenter.swift,
/// which the build compiles against a declared shape of UIKit (Tests/UIKitShape): a change
/// to `Transition` or `Presenter` breaks the build before it misleads a reader.
@Suite struct DocsUIKitPresenterTests {
    @Test func theDocsShowTheCompiledPresenter() throws {
        let root = CLIPaths.repositoryRoot
        let docs = try String(contentsOfFile: root + "/docs/router.md", encoding: .utf8)
        let file = try String(contentsOfFile: root + "/Tests/DocsUIKitPresenter/UIKitPresenter.swift", encoding: .utf8)
        let marker = "A UIKit presenter, compiled"
        let after = try #require(docs.range(of: marker), "docs/router.md has no \"\(marker)\"").upperBound
        let fence = try #require(docs.range(of: "```swift\n", range: after..<docs.endIndex))
        let end = try #require(docs.range(of: "\n```", range: fence.upperBound..<docs.endIndex))
        let block = String(docs[fence.upperBound..<end.lowerBound]) + "\n"
        #expect(block == file, "copy Tests/DocsUIKitPresenter/UIKitPresenter.swift into docs/router.md's block")
    }
}
