import Foundation
import MediaDownloader
import Testing

@Suite("Redirects")
struct RedirectTests {
    /// `/hop/0` redirects to `/hop/1` and so on; `/hop/N` answers with a JPEG.
    private func chain(_ hops: Int, status: Int = 302) throws -> TestServer {
        try TestServer { request in
            guard request.path.hasPrefix("/hop/"), let index = Int(request.path.dropFirst(5)) else { return .status(404) }
            return index < hops ? .redirect(to: "/hop/\(index + 1)", status: status) : .ok(SampleMedia.jpeg)
        }
    }

    @Test("5 redirects are followed, with every redirect status", arguments: [301, 302, 303, 307, 308])
    func fiveHops(status: Int) async throws {
        let server = try chain(5, status: status)
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let file = try await localDownloader().download(server.url("/hop/0"), into: directory.url)

        #expect(file.type == "public.jpeg")
        #expect(file.url == server.url("/hop/0"))
        #expect(file.finalURL == server.url("/hop/5"))
        #expect(server.requestedPaths.count == 6)
        directory.expectOnly([file])
    }

    @Test("a 6th redirect is refused with `not allowed`")
    func sixHops() async throws {
        let server = try chain(6)
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/hop/0"), into: directory)

        #expect(result.errorMessage == "not allowed: more than 5 redirects")
        #expect(server.requestedPaths.count == 6, "the 6th target is never requested")
        directory.expectEmpty()
    }

    @Test("a smaller redirect maximum holds")
    func smallerMaximum() async throws {
        let server = try chain(2)
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader(maxRedirects: 1).result(server.url("/hop/0"), into: directory)
        #expect(result.errorMessage == "not allowed: more than 1 redirects")
        directory.expectEmpty()
    }

    @Test("redirect loops are refused", arguments: ["/self", "/ping"])
    func loop(start: String) async throws {
        let server = try TestServer([
            "/self": .redirect(to: "/self"),
            "/ping": .redirect(to: "/pong"),
            "/pong": .redirect(to: "/ping"),
        ])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url(start), into: directory)

        #expect(result.errorMessage?.hasPrefix("not allowed: redirect loop at ") == true, "\(result)")
        #expect(server.requestedPaths.count <= 2)
        directory.expectEmpty()
    }

    @Test("redirects to disallowed URLs are refused and never requested",
          arguments: ["ftp://127.0.0.1/a.jpg", "file:///etc/passwd", "http://localhost/a.jpg", "gopher://x/1"])
    func disallowedTarget(location: String) async throws {
        let server = try TestServer(["/go": .redirect(to: location)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/go"), into: directory)

        #expect(result.errorMessage?.hasPrefix("not allowed: redirect to ") == true, "\(result)")
        #expect(server.requestedPaths == ["/go"])
        directory.expectEmpty()
    }

    @Test("a redirect to a 404 fails with `http 404`")
    func redirectToMissing() async throws {
        let server = try TestServer(["/go": .redirect(to: "/missing")])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/go"), into: directory)
        #expect(result.errorMessage?.hasPrefix("http 404") == true, "\(result)")
        directory.expectEmpty()
    }
}
