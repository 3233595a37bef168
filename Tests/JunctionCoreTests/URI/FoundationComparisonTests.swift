import Foundation
import JunctionCore
import Testing

/// Plain URLs on which Foundation's RFC 3986 parser and ours must agree.
@Suite struct FoundationComparisonTests {
    @Test(arguments: [
        "http://example.com",
        "http://example.com/",
        "https://example.com:8443/a/b?x=1&y=2#frag",
        "http://user:pass@example.com/path",
        "ftp://ftp.example.org/pub/file.txt",
        "http://example.com/a%20b/c?q=a%20b",
        "http://example.com/?",
        "http://example.com/#",
        "http://example.com/a/./b/../c",
        "http://127.0.0.1:8080/status",
        "http://example.com/caf%C3%A9?q=%E4%BD%A0#%C3%A9",
        "myapp://user/42?tab=posts#top",
        "myapp:///user/42",
        "mailto:someone@example.com",
        "urn:isbn:0451450523",
        "file:///etc/hosts",
        "//example.com/path?x",
        "/just/a/path?x=1&y=a+b",
        "relative/path#frag",
    ])
    func agreesWithURLComponents(_ input: String) throws {
        let ours = try URI(input, mode: .strict)
        let theirs = try #require(URLComponents(string: input))
        #expect(ours.scheme == theirs.scheme)
        #expect(ours.host == theirs.host)
        #expect(ours.port == theirs.port)
        #expect(ours.percentEncodedPath == theirs.percentEncodedPath)
        #expect(ours.percentEncodedQuery == theirs.percentEncodedQuery)
        #expect(ours.fragment == theirs.fragment)
        #expect(ours.percentEncodedFragment == theirs.percentEncodedFragment)
        let theirUserinfo = theirs.percentEncodedUser.map { user in
            theirs.percentEncodedPassword.map { "\(user):\($0)" } ?? user
        }
        #expect(ours.percentEncodedUserinfo == theirUserinfo)
    }
}
