import Foundation
import MediaDownloader
import NotificationModel
import Testing

@Suite("Downloads that succeed")
struct DownloadSuccessTests {
    @Test("every supported type downloads, typed from its bytes and named with its extension",
          arguments: SampleMedia.all.map(\.name))
    func everyType(name: String) async throws {
        let sample = try #require(SampleMedia.all.first { $0.name == name })
        let server = try TestServer(["/media/\(name)": .ok(sample.bytes, contentType: sample.contentType)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let url = server.url("/media/\(name)")
        let file = try await localDownloader().download(url, into: directory.url)

        #expect(file.type == sample.type.uti)
        #expect(file.mime == sample.type.mime)
        #expect(file.path.hasSuffix("." + sample.type.fileExtension))
        #expect(file.path.hasPrefix(directory.url.path + "/"))
        #expect(file.url == url)
        #expect(file.size == sample.bytes.count)
        #expect(try contents(file.path) == sample.bytes)
        #expect(file.warnings.isEmpty)
        directory.expectOnly([file])
    }

    @Test("a mislabeled type is downloaded, typed from its bytes, and warned about")
    func mislabeled() async throws {
        let server = try TestServer(["/pic.jpg": .ok(SampleMedia.png, contentType: "image/jpeg")])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let file = try await localDownloader().download(server.url("/pic.jpg"), into: directory.url)

        #expect(file.type == "public.png")
        #expect(file.mime == "image/png")
        #expect(file.path.hasSuffix(".png"))
        #expect(file.warnings.count == 2)
        #expect(file.warnings.contains { $0.contains("Content-Type 'image/jpeg'") && $0.contains("public.png") })
        #expect(file.warnings.contains { $0.contains("URL extension '.jpg'") })
        directory.expectOnly([file])
    }

    @Test("bytes of no supported type: downloaded with type nil, .bin, octet-stream")
    func unknownType() async throws {
        let html = Array("<html>a page, not a picture</html>".utf8)
        let server = try TestServer(["/page": .ok(html, contentType: "text/html")])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let file = try await localDownloader().download(server.url("/page"), into: directory.url)

        #expect(file.type == nil)
        #expect(file.mime == "application/octet-stream")
        #expect(file.path.hasSuffix(".bin"))
        #expect(file.size == html.count)
        #expect(file.warnings.isEmpty)
        directory.expectOnly([file])
    }

    @Test("kinds refuses other kinds and unknown bytes with `unsupported type`, and keeps no file")
    func kinds() async throws {
        let server = try TestServer([
            "/song.mp3": .ok(SampleMedia.mp3WithID3, contentType: "audio/mpeg"),
            "/page": .ok(Array("<html></html>".utf8), contentType: "text/html"),
            "/big.mp4": .generated(3_000_000, prefix: SampleMedia.mp4, contentType: "video/mp4"),
            "/pic": .ok(SampleMedia.gif),
        ])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let images = DownloadOptions(kinds: [.image])
        let downloader = localDownloader()

        let song = await downloader.result(server.url("/song.mp3"), into: directory, options: images)
        #expect(song.errorMessage == "unsupported type: the bytes are public.mp3, not image")
        let page = await downloader.result(server.url("/page"), into: directory, options: images)
        #expect(page.errorMessage?.hasPrefix("unsupported type: the bytes are of no supported type") == true)
        let video = await downloader.result(server.url("/big.mp4"), into: directory, options: images)
        #expect(video.errorMessage?.hasPrefix("unsupported type") == true)
        let picture = try await downloader.download(server.url("/pic"), into: directory.url,
                                                    options: DownloadOptions(kinds: [.image, .video]))
        #expect(picture.type == "com.compuserve.gif")
        directory.expectOnly([picture])
    }

    @Test("a body without Content-Length is read to the end of the connection")
    func closeDelimited() async throws {
        var response = TestResponse.generated(300_000, prefix: SampleMedia.jpeg, contentType: "image/jpeg")
        response.length = .omitted
        let server = try TestServer(["/a.jpg": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let file = try await localDownloader().download(server.url("/a.jpg"), into: directory.url)

        #expect(file.size == 300_000)
        #expect(file.type == "public.jpeg")
        directory.expectOnly([file])
    }

    @Test("a body of exactly maxBytes is accepted")
    func exactlyTheLimit() async throws {
        let server = try TestServer(["/a.png": .generated(10_000, prefix: SampleMedia.png)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let file = try await localDownloader().download(server.url("/a.png"), into: directory.url,
                                                        options: DownloadOptions(maxBytes: 10_000))
        #expect(file.size == 10_000)
        directory.expectOnly([file])
    }

    @Test("the attachment directory is created when missing")
    func createsDirectory() async throws {
        let server = try TestServer(["/a.gif": .ok(SampleMedia.gif)])
        defer { server.stop() }
        let parent = try AttachmentDirectory()
        defer { parent.remove() }
        let nested = parent.url.appendingPathComponent("request-1/attachments")

        let file = try await localDownloader().download(server.url("/a.gif"), into: nested)

        #expect(file.path.hasPrefix(nested.path + "/"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: nested.path) == [file.fileURL.lastPathComponent])
    }
}
