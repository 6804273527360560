import Foundation
import MediaDownloader

/// A transport that answers requests from tables instead of the network, for fixtures,
/// `--media`, `--media-map` and `--http-map`: downloads (`GET`) from ``media``, posts from
/// ``posts``. It streams a file in chunks through the same receiver as the network does, so the
/// policy, status, size limits, typing, timeouts and deadline all apply. A request the tables do
/// not cover goes to the transport after it (``covers(_:)``); asked alone, it fails as
/// ``OfflineTransport`` does. Media URLs match with their scheme and host in any case; post
/// URLs as written.
public struct FixtureTransport: Transport {
    /// The answers for downloads, keyed by URL.
    public let media: [String: FixtureMedia]
    /// The answers for posts, keyed by URL.
    public let posts: [String: PostAnswer]
    /// The size of the chunks the body is delivered in.
    public let chunkSize: Int
    private let normalized: [String: FixtureMedia]

    /// A transport that answers from `media` and `posts`, delivering bodies in chunks of
    /// `chunkSize` bytes.
    public init(media: [String: FixtureMedia] = [:], posts: [String: PostAnswer] = [:], chunkSize: Int = 64 * 1024) {
        self.media = media
        self.posts = posts
        self.chunkSize = max(1, chunkSize)
        var normalized: [String: FixtureMedia] = [:]
        for (key, value) in media {
            normalized[URL(string: key).map(Self.key) ?? key] = value
        }
        self.normalized = normalized
    }

    /// The files the media answers name, which `content:attach` may read as well as downloads.
    public var files: [URL] { media.values.compactMap(\.file) }

    /// The table's answer for a download of `url`, or nil.
    public func answer(for url: URL) -> FixtureMedia? {
        media[url.absoluteString] ?? normalized[Self.key(url)]
    }

    /// Whether a table answers `request`: a `GET` from ``media``, anything else from ``posts``.
    public func covers(_ request: TransferRequest) -> Bool {
        request.method == "GET" ? answer(for: request.url) != nil : posts[request.url.absoluteString] != nil
    }

    /// Answers `request` from the tables on a task of its own.
    public func startTransfer(_ request: TransferRequest, to receiver: any TransferReceiver) -> any TransferHandle {
        guard covers(request) else { return OfflineTransport().startTransfer(request, to: receiver) }
        let chunkSize = chunkSize
        if request.method != "GET", let answer = posts[request.url.absoluteString] {
            return FixtureTransferHandle(task: Task.detached { await Self.serve(answer, to: receiver) })
        }
        let entry = answer(for: request.url)
        let url = request.url
        let task = Task.detached {
            await Self.serve(entry, url: url, to: receiver, chunkSize: chunkSize)
        }
        return FixtureTransferHandle(task: task)
    }

    /// Answers a post: after the delay, the status and the body whole.
    private static func serve(_ answer: PostAnswer, to receiver: any TransferReceiver) async {
        if answer.delayMs > 0 {
            do { try await Task.sleep(for: .milliseconds(answer.delayMs)) } catch { return }
        }
        let body = Data(answer.body.utf8)
        guard !Task.isCancelled, receiver.receive(head: ResponseHead(status: answer.status, headers: ["Content-Length": String(body.count)])) else {
            return
        }
        if !body.isEmpty {
            guard receiver.receive(chunk: body) else { return }
        }
        if !Task.isCancelled { receiver.finish(error: nil) }
    }

    private static func key(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        return parts.string ?? url.absoluteString
    }

    private static func serve(_ entry: FixtureMedia?, url: URL, to sink: any TransferReceiver, chunkSize: Int) async {
        guard let entry else {
            sink.finish(error: OfflineTransport.failure(for: TransferRequest(url: url)))
            return
        }
        if entry.delayMs > 0 {
            do {
                try await Task.sleep(for: .milliseconds(entry.delayMs))
            } catch {
                return
            }
        }
        var headers: [String: String] = [:]
        if let contentType = entry.contentType { headers["Content-Type"] = contentType }
        guard let file = entry.file else {
            headers["Content-Length"] = "0"
            if sink.receive(head: ResponseHead(status: entry.status, headers: headers)) { sink.finish(error: nil) }
            return
        }
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            let padded = max(Int(size), entry.sizeBytes ?? 0)
            headers["Content-Length"] = String(padded)
            guard !Task.isCancelled, sink.receive(head: ResponseHead(status: entry.status, headers: headers)) else {
                return
            }
            while !Task.isCancelled, let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
                guard sink.receive(chunk: chunk) else { return }
                await Task.yield()
            }
            var left = padded - Int(size)
            let zeros = Data(count: min(chunkSize, max(left, 0)))
            while !Task.isCancelled, left > 0 {
                guard sink.receive(chunk: left >= zeros.count ? zeros : zeros.prefix(left)) else { return }
                left -= min(left, zeros.count)
                await Task.yield()
            }
            if !Task.isCancelled { sink.finish(error: nil) }
        } catch {
            sink.finish(error: DownloadError(.network, "cannot read fixture file '\(file.path)': \(error)"))
        }
    }
}

/// Cancels the task that serves one fixture answer.
private struct FixtureTransferHandle: TransferHandle {
    let task: Task<Void, Never>

    func cancel() { task.cancel() }
}
