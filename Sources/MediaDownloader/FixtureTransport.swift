import Foundation

/// A transport that answers URLs from a table instead of the network, for fixtures and
/// `--media`. It streams the file in chunks through the same sink as the network does, so the
/// policy, status, size limits, typing, timeouts and deadline all apply; a URL the table does
/// not list fails with `network`. URLs match with their scheme and host in any case.
public struct FixtureTransport: Transport {
    /// The answers, keyed by URL.
    public let media: [String: FixtureMedia]
    /// The size of the chunks the body is delivered in.
    public let chunkSize: Int
    private let normalized: [String: FixtureMedia]

    /// A transport that answers from `media`, delivering bodies in chunks of `chunkSize` bytes.
    public init(media: [String: FixtureMedia], chunkSize: Int = 64 * 1024) {
        self.media = media
        self.chunkSize = max(1, chunkSize)
        var normalized: [String: FixtureMedia] = [:]
        for (key, value) in media {
            normalized[URL(string: key).map(Self.key) ?? key] = value
        }
        self.normalized = normalized
    }

    /// The table's answer for `url`, or nil.
    public func answer(for url: URL) -> FixtureMedia? {
        media[url.absoluteString] ?? normalized[Self.key(url)]
    }

    /// Answers `url` from the table on a task of its own.
    public func startTransfer(of url: URL, to sink: TransferSink) -> any TransferHandle {
        let entry = answer(for: url)
        let chunkSize = chunkSize
        let task = Task.detached {
            await Self.serve(entry, url: url, to: sink, chunkSize: chunkSize)
        }
        return FixtureTransferHandle(task: task)
    }

    private static func key(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        return parts.string ?? url.absoluteString
    }

    private static func serve(_ entry: FixtureMedia?, url: URL, to sink: TransferSink, chunkSize: Int) async {
        guard let entry else {
            sink.finish(error: DownloadError(.network, "no media answer for '\(url.absoluteString)' and no network to ask"))
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
