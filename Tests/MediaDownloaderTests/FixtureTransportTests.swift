import FixtureTransports
import Foundation
import MediaDownloader
import Testing

@Suite("Fixture transport")
struct FixtureTransportTests {
    /// A folder of media files for fixtures, and a downloader answering from `media`.
    private struct Fixture {
        let media = try! AttachmentDirectory()
        let attachments = try! AttachmentDirectory()

        func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
            let url = media.url.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url
        }

        func downloader(_ table: [String: FixtureMedia], allowingHTTPFor hosts: [String] = [],
                        chunkSize: Int = 64 * 1024) -> MediaDownloader {
            MediaDownloader(transport: FixtureTransport(media: table, chunkSize: chunkSize),
                            policy: DownloadPolicy(allowingHTTPFor: hosts))
        }

        func remove() {
            media.remove()
            attachments.remove()
        }
    }

    @Test("a listed file is streamed, typed from its bytes and named with its extension")
    func file() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let big = try fixture.write("clip.bin", SampleMedia.mp4 + [UInt8](repeating: 7, count: 300_000))
        let downloader = fixture.downloader(["https://cdn.example.com/clip": FixtureMedia(file: big)], chunkSize: 4096)

        let file = try await downloader.download("https://cdn.example.com/clip", into: fixture.attachments.url)

        #expect(file.type == "public.mpeg-4")
        #expect(file.mime == "video/mp4")
        #expect(file.path.hasSuffix(".mp4"))
        #expect(file.size == SampleMedia.mp4.count + 300_000)
        #expect(try contents(file.path) == contents(big.path))
        #expect(file.warnings.isEmpty)
        fixture.attachments.expectOnly([file])
    }

    @Test("sizeBytes pads a small file with zeros, so it stands in for a large one")
    func padded() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let small = try fixture.write("pic.bin", SampleMedia.mp4)
        let downloader = fixture.downloader(["https://cdn.example.com/big": FixtureMedia(file: small, sizeBytes: 100_000)], chunkSize: 4096)

        let file = try await downloader.download("https://cdn.example.com/big", into: fixture.attachments.url)
        #expect(file.size == 100_000)
        #expect(Array(try contents(file.path).prefix(SampleMedia.mp4.count)) == (try contents(small.path)))
        #expect(try contents(file.path).dropFirst(SampleMedia.mp4.count).allSatisfy { $0 == 0 })

        let refused = await downloader.result("https://cdn.example.com/big", into: fixture.attachments, options: DownloadOptions(maxBytes: 50_000))
        #expect(refused.errorMessage?.hasPrefix("too large") == true)
        fixture.attachments.expectOnly([file])
    }

    @Test("status: an error status fails with `http NNN`, with or without a file", arguments: [404, 500, 403])
    func status(code: Int) async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let png = try fixture.write("a.png", SampleMedia.png)
        let downloader = fixture.downloader([
            "https://cdn.example.com/gone.jpg": FixtureMedia(status: code),
            "https://cdn.example.com/broken.png": FixtureMedia(file: png, status: code),
        ])

        for url in ["https://cdn.example.com/gone.jpg", "https://cdn.example.com/broken.png"] {
            let result = await downloader.result(url, into: fixture.attachments)
            #expect(result.errorMessage?.hasPrefix("http \(code): ") == true, "\(result)")
        }
        fixture.attachments.expectEmpty()
    }

    @Test("contentType: a lying Content-Type is not trusted, only warned about")
    func contentType() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let png = try fixture.write("a.png", SampleMedia.png)
        let downloader = fixture.downloader([
            "https://cdn.example.com/mislabeled": FixtureMedia(file: png, contentType: "image/jpeg"),
        ])

        let file = try await downloader.download("https://cdn.example.com/mislabeled", into: fixture.attachments.url)

        #expect(file.type == "public.png")
        #expect(file.path.hasSuffix(".png"))
        #expect(file.warnings == [
            "Content-Type 'image/jpeg' claims public.jpeg but the bytes are public.png; typed from the bytes",
        ])
        fixture.attachments.expectOnly([file])
    }

    @Test("delayMs delays the answer; a timeout or the deadline inside the delay ends it")
    func delay() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let jpeg = try fixture.write("a.jpg", SampleMedia.jpeg)
        let downloader = fixture.downloader([
            "https://cdn.example.com/slow.jpg": FixtureMedia(file: jpeg, delayMs: 400),
            "https://cdn.example.com/slower.jpg": FixtureMedia(file: jpeg, delayMs: 5_000),
        ])

        var start = ContinuousClock.now
        let file = try await downloader.download("https://cdn.example.com/slow.jpg", into: fixture.attachments.url)
        #expect(secondsSince(start) >= 0.39)
        #expect(file.type == "public.jpeg")

        start = ContinuousClock.now
        let timedOut = await downloader.result("https://cdn.example.com/slower.jpg", into: fixture.attachments,
                                               options: DownloadOptions(timeout: .milliseconds(200)))
        #expect(timedOut.errorMessage == "timeout: no complete response within 0.2 s")
        #expect(secondsSince(start) < 1)

        start = ContinuousClock.now
        let late = await downloader.result("https://cdn.example.com/slower.jpg", into: fixture.attachments,
                                           deadline: .now + .milliseconds(200))
        #expect(late.errorMessage == "timeout: the request's deadline came before the download finished")
        #expect(secondsSince(start) < 1)
        fixture.attachments.expectOnly([file])
    }

    @Test("a URL the table does not list fails with `network`")
    func unknownURL() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let downloader = fixture.downloader([:])

        let result = await downloader.result("https://cdn.example.com/nothing.jpg", into: fixture.attachments)

        #expect(result.errorMessage == "network: no media answer for 'https://cdn.example.com/nothing.jpg' and no network to ask")
        fixture.attachments.expectEmpty()
    }

    @Test("a listed file that does not exist fails with `network`")
    func missingFile() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let downloader = fixture.downloader([
            "https://cdn.example.com/a.jpg": FixtureMedia(file: fixture.media.url.appendingPathComponent("none.jpg")),
        ])

        let result = await downloader.result("https://cdn.example.com/a.jpg", into: fixture.attachments)

        #expect(result.errorMessage?.hasPrefix("network: cannot read fixture file") == true)
        fixture.attachments.expectEmpty()
    }

    @Test("the policy, size limit and kinds apply to fixture URLs as to real ones")
    func sameRules() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let jpeg = try fixture.write("a.jpg", SampleMedia.jpeg + [UInt8](repeating: 0, count: 5_000))
        let table = [
            "http://cdn.example.com/a.jpg": FixtureMedia(file: jpeg),
            "https://cdn.example.com/a.jpg": FixtureMedia(file: jpeg),
            "file:///tmp/a.jpg": FixtureMedia(file: jpeg),
        ]
        let downloader = fixture.downloader(table)

        let http = await downloader.result("http://cdn.example.com/a.jpg", into: fixture.attachments)
        #expect(http.errorMessage?.hasPrefix("not allowed: plain http") == true)
        let file = await downloader.result("file:///tmp/a.jpg", into: fixture.attachments)
        #expect(file.errorMessage?.hasPrefix("not allowed") == true)
        let large = await downloader.result("https://cdn.example.com/a.jpg", into: fixture.attachments,
                                            options: DownloadOptions(maxBytes: 1_000))
        #expect(large.errorMessage?.hasPrefix("too large: Content-Length") == true)
        let kind = await downloader.result("https://cdn.example.com/a.jpg", into: fixture.attachments,
                                           options: DownloadOptions(kinds: [.video]))
        #expect(kind.errorMessage == "unsupported type: the bytes are public.jpeg, not video")

        let allowed = try await fixture.downloader(table, allowingHTTPFor: ["cdn.example.com"])
            .download("http://cdn.example.com/a.jpg", into: fixture.attachments.url)
        #expect(allowed.type == "public.jpeg")
        fixture.attachments.expectOnly([allowed])
    }

    @Test("URLs match with the scheme and host in any case")
    func caseInsensitiveMatch() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let gif = try fixture.write("a.gif", SampleMedia.gif)
        let downloader = fixture.downloader(["https://CDN.Example.com/Path/A.gif": FixtureMedia(file: gif)])

        let file = try await downloader.download("HTTPS://cdn.example.COM/Path/A.gif", into: fixture.attachments.url)
        #expect(file.type == "com.compuserve.gif")
        #expect(file.url == "HTTPS://cdn.example.COM/Path/A.gif")
        let other = await downloader.result("https://cdn.example.com/path/a.gif", into: fixture.attachments)
        #expect(other.errorMessage?.hasPrefix("network") == true, "paths stay case-sensitive")
        fixture.attachments.expectOnly([file])
    }

    @Test("fixture downloads run in parallel in downloadAll")
    func parallel() async throws {
        let fixture = Fixture()
        defer { fixture.remove() }
        let jpeg = try fixture.write("a.jpg", SampleMedia.jpeg)
        var table: [String: FixtureMedia] = [:]
        for index in 0..<3 { table["https://cdn.example.com/\(index).jpg"] = FixtureMedia(file: jpeg, delayMs: 1000) }
        let downloader = fixture.downloader(table)

        let start = ContinuousClock.now
        let results = await downloader.downloadAll((0..<3).map { "https://cdn.example.com/\($0).jpg" },
                                                   into: fixture.attachments.url)
        let elapsed = secondsSince(start)

        #expect(elapsed < 2, "took \(elapsed) s; two at a time would be 2 s, one after another 3 s")
        #expect(results.allSatisfy { $0.file?.type == "public.jpeg" })
        fixture.attachments.expectOnly(results.compactMap(\.file))
    }
}
