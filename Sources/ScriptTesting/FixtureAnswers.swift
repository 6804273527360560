import FixtureTransports
import Foundation
import ScriptHost

/// Answers for downloads and posts in place of the network: a fixture's `media` and `http`,
/// or the command line's `--media`, `--media-map` and `--http-map`. They go to the host beside
/// the request (``requestAnswers``), never inside it.
public struct FixtureAnswers: Sendable, Hashable {
    /// Answers for downloads, by URL.
    public var media: [String: FixtureMedia]
    /// Answers for `http.post`, by URL.
    public var http: [String: PostAnswer]

    /// Answers; none by default.
    public init(media: [String: FixtureMedia] = [:], http: [String: PostAnswer] = [:]) {
        self.media = media
        self.http = http
    }

    /// Whether there are none.
    public var isEmpty: Bool { media.isEmpty && http.isEmpty }

    /// Answers a download of `url` with the bytes of `file` (`--media URL=FILE`).
    public mutating func answer(_ url: String, withFile file: URL) {
        media[url] = FixtureMedia(file: file)
    }

    /// The answers as the host takes them: a transport that covers their URLs, and the files
    /// they name (which `content:attach` may read). Nil when there are none.
    package var requestAnswers: RequestAnswers? {
        guard !isEmpty else { return nil }
        let transport = FixtureTransport(media: media, posts: http)
        return RequestAnswers(transport: transport, files: transport.files)
    }
}
