import Dispatch
import Foundation

/// Downloads media for notification attachments: checks each URL against a ``DownloadPolicy``,
/// streams the body through a ``Transport`` to a file in the caller's attachment directory,
/// types it from its own bytes and names the file with that type's extension.
///
/// Every download ends by its ``DownloadOptions/timeout``, by the deadline it is given, or by
/// the cancellation of its task, whichever comes first; then it returns at once and leaves no
/// partial file behind.
public struct MediaDownloader: Sendable {
    /// Where the bytes come from.
    public let transport: any Transport
    /// Which URLs and redirects are allowed.
    public let policy: DownloadPolicy

    /// A downloader over `transport` that obeys `policy`.
    public init(transport: any Transport, policy: DownloadPolicy = DownloadPolicy()) {
        self.transport = transport
        self.policy = policy
    }

    /// Downloads `url` into `directory` (created if missing).
    ///
    /// - Parameters:
    ///   - url: the URL as the script gave it.
    ///   - directory: the request's attachment directory.
    ///   - options: timeout, size limit and accepted kinds.
    ///   - deadline: the request's deadline; a download cannot start after it and is stopped
    ///     when it comes.
    /// - Returns: the file, named `<name>-<random>.<extension of the sniffed type>`.
    /// - Throws: a ``DownloadError`` whose message starts with one of the contract's prefixes.
    public func download(_ url: String, into directory: URL, options: DownloadOptions = DownloadOptions(),
                         deadline: ContinuousClock.Instant? = nil) async throws(DownloadError) -> DownloadedFile {
        let start = ContinuousClock.now
        if let deadline, deadline <= start {
            throw DownloadError(.deadline, "the request's deadline has passed; no download may start")
        }
        if Task.isCancelled { throw Self.cancelled }
        let checked = try policy.check(url)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DownloadError(.network, "cannot create the attachment directory: \(error)")
        }
        let name = AttachmentName(for: checked)
        let control = DownloadControl()
        let timer = Self.startTimer(control, start: start, timeout: options.timeout, deadline: deadline)
        defer { timer?.cancel() }
        let outcome = await withTaskCancellationHandler {
            await follow(checked, control: control, partialFile: directory.appendingPathComponent(name.partial),
                         options: options)
        } onCancel: {
            control.stop(Self.cancelled)
        }
        switch outcome {
        case .failed(let error):
            throw error
        case .redirect:
            throw DownloadError(.network, "a redirect was not followed")
        case .completed(let finalURL, let head, let file, let size, let prefix):
            return try finish(file: file, head: head, size: size, prefix: prefix, requested: url,
                              finalURL: finalURL, name: name, directory: directory, options: options)
        }
    }

    static let cancelled = DownloadError(.deadline, "the download was cancelled (the request's deadline came)")

    /// A timer that stops the download when its timeout or the deadline comes, whichever is
    /// first. A dispatch timer, not a sleeping task: a cancelled `Task.sleep` keeps its memory
    /// until the instant it slept for, which for a 25 s deadline is thousands of downloads.
    private static func startTimer(_ control: DownloadControl, start: ContinuousClock.Instant,
                                   timeout: Duration?, deadline: ContinuousClock.Instant?) -> (any DispatchSourceTimer)? {
        let timeoutEnd = timeout.map { start + $0 }
        let end: ContinuousClock.Instant
        let error: DownloadError
        switch (timeoutEnd, deadline) {
        case (nil, nil):
            return nil
        case (let timeoutEnd?, let deadline) where deadline.map({ timeoutEnd <= $0 }) ?? true:
            end = timeoutEnd
            error = DownloadError(.timeout, "no complete response within \(Self.seconds(timeout ?? .zero))")
        case (_, let deadline?):
            end = deadline
            error = DownloadError(.timeout, "the request's deadline came before the download finished")
        default:
            return nil
        }
        let (seconds, attoseconds) = max(.zero, end - .now).components
        let nanoseconds = seconds >= Int64(Int.max / 1_000_000_000) ? Int.max : Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .milliseconds(1))
        timer.setEventHandler { control.stop(error) }
        timer.resume()
        return timer
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String(format: "%g s", value)
    }
}
