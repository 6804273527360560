import Foundation
import MediaDownloader
import NotificationModel
import Testing

@Suite("What Content-Type and URL extensions claim")
struct MediaTypeClaimTests {
    @Test("Content-Type values, with parameters, aliases and generic types")
    func contentTypes() {
        #expect(MediaType.claim(contentType: "image/jpeg") == .type(.jpeg))
        #expect(MediaType.claim(contentType: "IMAGE/PNG; charset=binary") == .type(.png))
        #expect(MediaType.claim(contentType: "audio/x-wav") == .type(.wav))
        #expect(MediaType.claim(contentType: "video/quicktime") == .other("video/quicktime"))
        #expect(MediaType.claim(contentType: "application/octet-stream") == MediaTypeClaim.none)
        #expect(MediaType.claim(contentType: nil) == MediaTypeClaim.none)
        #expect(MediaType.claim(contentType: "") == MediaTypeClaim.none)
    }

    @Test("URL path extensions, in any case, query ignored")
    func extensions() throws {
        #expect(MediaType.claim(urlPath: try #require(URL(string: "https://x.test/a/b.JPG?size=2"))) == .type(.jpeg))
        #expect(MediaType.claim(urlPath: try #require(URL(string: "https://x.test/clip.m4v"))) == .type(.mp4))
        #expect(MediaType.claim(urlPath: try #require(URL(string: "https://x.test/pic.webp"))) == .other(".webp"))
        #expect(MediaType.claim(urlPath: try #require(URL(string: "https://x.test/mislabeled"))) == MediaTypeClaim.none)
    }

    @Test("warnings name each disagreeing source; agreement gives none")
    func warnings() throws {
        let url = try #require(URL(string: "https://cdn.test/a.jpg"))
        #expect(MediaType.mismatchWarnings(sniffed: .jpeg, contentType: "image/jpeg", url: url).isEmpty)
        let both = MediaType.mismatchWarnings(sniffed: .png, contentType: "image/jpeg", url: url)
        #expect(both.count == 2)
        #expect(both[0].hasPrefix("Content-Type 'image/jpeg' claims public.jpeg but the bytes are public.png"))
        #expect(both[1].hasPrefix("URL extension '.jpg' claims public.jpeg but the bytes are public.png"))
        let html = MediaType.mismatchWarnings(sniffed: .gif, contentType: "text/html", url: URL(string: "https://x.test/g")!)
        #expect(html == ["Content-Type 'text/html' is not a supported media type but the bytes are com.compuserve.gif; typed from the bytes"])
        let unknown = MediaType.mismatchWarnings(sniffed: nil, contentType: "image/jpeg", url: URL(string: "https://x.test/g")!)
        #expect(unknown == ["Content-Type 'image/jpeg' claims public.jpeg but the bytes are of no supported type; typed from the bytes"])
        #expect(MediaType.mismatchWarnings(sniffed: nil, contentType: "text/html", url: URL(string: "https://x.test/g")!).isEmpty)
        #expect(MediaType.mismatchWarnings(sniffed: .mpeg2Video, contentType: "video/mpeg", url: URL(string: "https://x.test/v.mpg")!).isEmpty)
    }
}
