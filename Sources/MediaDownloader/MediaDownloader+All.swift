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
        var results = [Result<DownloadedFile, DownloadError>?](repeating: nil, count: urls.count)
        await withTaskGroup(of: (Int, Result<DownloadedFile, DownloadError>).self) { group in
            var next = 0
            func startNext() {
                guard next < urls.count else { return }
                let index = next
                next += 1
                group.addTask {
                    do throws(DownloadError) {
                        return (index, .success(try await download(urls[index], into: directory,
                                                                   options: options, deadline: deadline)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for _ in 0..<max(1, maxConcurrent) { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
        }
        return results.map { $0 ?? .failure(Self.cancelled) }
    }
}
