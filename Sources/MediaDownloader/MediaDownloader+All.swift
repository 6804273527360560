import Foundation

extension MediaDownloader {
    /// The default number of downloads ``downloadAll(_:into:options:deadline:maxConcurrent:)``
    /// runs at once.
    public static let defaultMaxConcurrent = 8

    /// Downloads every URL in parallel (at most `maxConcurrent` at once), so that the slowest
    /// bounds the time rather than the sum; returns one result per URL, in the order given.
    public func downloadAll(_ urls: [String], into directory: URL, options: DownloadOptions = DownloadOptions(),
                            deadline: ContinuousClock.Instant? = nil,
                            maxConcurrent: Int = MediaDownloader.defaultMaxConcurrent)
        async -> [Result<DownloadedFile, DownloadError>] {
        typealias Outcome = (index: Int, result: Result<DownloadedFile, DownloadError>)
        @Sendable func attempt(_ index: Int) async -> Outcome {
            (index, await downloadResult(urls[index], into: directory, options: options, deadline: deadline))
        }
        return await withTaskGroup(of: Outcome.self, returning: [Result<DownloadedFile, DownloadError>].self) { group in
            var results = [Result<DownloadedFile, DownloadError>](repeating: .failure(Self.cancelled), count: urls.count)
            var waiting = urls.indices.makeIterator()
            for _ in 0..<max(1, maxConcurrent) {
                guard let index = waiting.next() else { break }
                group.addTask { await attempt(index) }
            }
            while let outcome = await group.next() {
                results[outcome.index] = outcome.result
                if let index = waiting.next() { group.addTask { await attempt(index) } }
            }
            return results
        }
    }

    /// ``download(_:into:options:deadline:)`` as a `Result`.
    func downloadResult(_ url: String, into directory: URL, options: DownloadOptions,
                        deadline: ContinuousClock.Instant?) async -> Result<DownloadedFile, DownloadError> {
        do {
            return .success(try await download(url, into: directory, options: options, deadline: deadline))
        } catch {
            return .failure(error)
        }
    }
}
