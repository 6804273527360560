import Foundation
import MediaDownloader
import Testing

@Suite("Download policy")
struct DownloadPolicyTests {
    let strict = DownloadPolicy()
    let lenient = DownloadPolicy(allowingHTTPFor: ["Media.Example.com", "[::1]"])

    private func refusal(_ policy: DownloadPolicy, _ url: String) -> String? {
        do {
            _ = try policy.check(url)
            return nil
        } catch {
            #expect(error.kind == .notAllowed)
            return error.message
        }
    }

    @Test("absolute https URLs pass, the scheme in any case, and come back with it in lower case")
    func https() throws {
        #expect(try strict.check("https://cdn.example.com/a.jpg").absoluteString == "https://cdn.example.com/a.jpg")
        #expect(try strict.check("HTTPS://cdn.example.com/a.jpg").absoluteString == "https://cdn.example.com/a.jpg")
        #expect(try strict.check("hTtPs://cdn.example.com:8443/a.jpg?x=1").scheme == "https")
    }

    @Test("refused: file:, ftp:, data:, other schemes, scheme-relative and relative URLs, no host",
          arguments: ["file:///etc/passwd", "FILE:///tmp/a.jpg", "ftp://example.com/a.jpg", "data:image/png;base64,AAAA",
                      "javascript:alert(1)", "//cdn.example.com/a.jpg", "/a.jpg", "a.jpg", "", "https:///a.jpg",
                      "not a url"])
    func refused(url: String) {
        let message = refusal(strict, url)
        #expect(message?.hasPrefix("not allowed: ") == true, "\(url) → \(message ?? "allowed")")
    }

    @Test("plain http is refused unless its host is allowed, exactly and in any case")
    func http() throws {
        #expect(refusal(strict, "http://media.example.com/a.jpg")?.hasPrefix("not allowed: plain http") == true)
        #expect(try lenient.check("http://media.example.com/a.jpg").host == "media.example.com")
        #expect(try lenient.check("HTTP://MEDIA.example.COM/a.jpg").scheme == "http")
        #expect(try lenient.check("http://[::1]:8080/a.jpg").port == 8080)
        #expect(refusal(lenient, "http://cdn.media.example.com/a.jpg") != nil, "subdomains are not included")
        #expect(refusal(lenient, "http://example.com/a.jpg") != nil)
        #expect(try lenient.check("https://anything.example.org/a.jpg").scheme == "https")
    }

    @Test("at most 5 redirects by default")
    func redirects() {
        #expect(strict.maxRedirects == 5)
        #expect(DownloadPolicy(maxRedirects: 2).maxRedirects == 2)
    }

    @Test("error messages start with their prefix")
    func errorMessages() {
        #expect(DownloadError.http(404, "not found").message == "http 404: not found")
        #expect(DownloadError(.tooLarge, "over").message == "too large: over")
        #expect(DownloadError(.unsupportedType, "x").message == "unsupported type: x")
        #expect(DownloadError(.deadline, "x").message == "deadline: x")
    }
}
