import Foundation
import NotificationModel
import Synchronization

/// Where a ``Transport`` delivers one response. It is the one place where every transport's
/// bytes are handled: it refuses error statuses and bodies over the size limit, streams the
/// body to a partial file chunk by chunk (never holding it in memory), keeps the first bytes for
/// typing, and removes the partial file when the transfer fails or is stopped.
///
/// The downloader makes one sink per request it sends; transports only call its methods.
/// All methods may be called from any thread; calls after the end are ignored.
public final class TransferSink: TransferReceiver {
    /// How one transfer ended.
    enum Outcome: Sendable {
        /// A redirect response, to be followed (or refused) by the downloader.
        case redirect(ResponseHead)
        /// The whole body of `url` is in `file`, closed; `prefix` holds its first bytes.
        case completed(url: URL, head: ResponseHead, file: URL, size: Int, prefix: [UInt8])
        /// The transfer failed; no partial file remains.
        case failed(DownloadError)
    }

    private enum Phase {
        case awaitingHead
        case streaming(head: ResponseHead, file: FileHandle, written: Int, prefix: [UInt8])
        case done
    }

    private struct State {
        var phase = Phase.awaitingHead
        var continuation: CheckedContinuation<Outcome, Never>?
        var pending: Outcome?
        var handle: (any TransferHandle)?
    }

    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    private let url: URL
    private let partialFile: URL
    private let maxBytes: Int
    private let kinds: Set<AttachmentKind>?
    private let state = Mutex(State())

    init(url: URL, partialFile: URL, maxBytes: Int, kinds: Set<AttachmentKind>?) {
        self.url = url
        self.partialFile = partialFile
        self.maxBytes = maxBytes
        self.kinds = kinds
    }

    /// Takes the response head. Returns false when the transfer should stop: a redirect, a
    /// status other than 2xx, or a `Content-Length` over the limit.
    public func receive(head: ResponseHead) -> Bool {
        let (proceed, effects) = state.withLock { state -> (Bool, Effects) in
            guard case .awaitingHead = state.phase else { return (false, Effects()) }
            if Self.redirectStatuses.contains(head.status), head.location != nil {
                return (false, end(&state, .redirect(head), stopTransport: true))
            }
            guard (200..<300).contains(head.status) else {
                let reason = HTTPStatusReason.text(for: head.status)
                return (false, end(&state, .failed(.http(head.status, reason)), stopTransport: true))
            }
            if let length = head.contentLength, length > maxBytes {
                let error = DownloadError(.tooLarge, "Content-Length \(length) is over the limit of \(maxBytes) bytes")
                return (false, end(&state, .failed(error), stopTransport: true))
            }
            do {
                guard FileManager.default.createFile(atPath: partialFile.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown)
                }
                let file = try FileHandle(forWritingTo: partialFile)
                state.phase = .streaming(head: head, file: file, written: 0, prefix: [])
                return (true, Effects())
            } catch {
                let failure = DownloadError(.network, "cannot write to the attachment directory: \(error)")
                return (false, end(&state, .failed(failure), stopTransport: true))
            }
        }
        effects.run()
        return proceed
    }

    /// Appends a chunk of the body to the file. Returns false when the transfer should stop:
    /// the body passed the size limit, the file cannot be written, or its first bytes show a kind
    /// the download did not ask for.
    public func receive(chunk: Data) -> Bool {
        let (proceed, effects) = state.withLock { state -> (Bool, Effects) in
            guard case .streaming(let head, let file, var written, var prefix) = state.phase else {
                return (false, Effects())
            }
            if chunk.count > maxBytes - written {
                let error = DownloadError(.tooLarge, "the body passed the limit of \(maxBytes) bytes")
                return (false, end(&state, .failed(error), stopTransport: true))
            }
            do {
                try file.write(contentsOf: chunk)
            } catch {
                let failure = DownloadError(.network, "cannot write the download to disk: \(error)")
                return (false, end(&state, .failed(failure), stopTransport: true))
            }
            written += chunk.count
            let wasShort = prefix.count < MediaType.sniffLength
            if wasShort { prefix.append(contentsOf: chunk.prefix(MediaType.sniffLength - prefix.count)) }
            state.phase = .streaming(head: head, file: file, written: written, prefix: prefix)
            if wasShort, prefix.count == MediaType.sniffLength, let error = Self.kindError(prefix, kinds) {
                return (false, end(&state, .failed(error), stopTransport: true))
            }
            return (true, Effects())
        }
        effects.run()
        return proceed
    }

    /// Ends the transfer: nil when the whole body arrived, else why it failed. A body shorter
    /// than its `Content-Length` fails with `network`.
    public func finish(error: DownloadError?) {
        let effects = state.withLock { state -> Effects in
            switch state.phase {
            case .done:
                return Effects()
            case .awaitingHead:
                let failure = error ?? DownloadError(.network, "the connection closed before a response came")
                return end(&state, .failed(failure), stopTransport: false)
            case .streaming(let head, _, let written, let prefix):
                if let error { return end(&state, .failed(error), stopTransport: false) }
                if let expected = head.contentLength, written != expected {
                    let failure = DownloadError(
                        .network, "the connection closed after \(written) of \(expected) bytes")
                    return end(&state, .failed(failure), stopTransport: false)
                }
                let done = Outcome.completed(url: url, head: head, file: partialFile, size: written, prefix: prefix)
                return end(&state, done, stopTransport: false)
            }
        }
        effects.run()
    }

    /// Stops the transfer from outside (a timeout, the deadline, cancellation) with `error`:
    /// the transport is cancelled and the partial file removed at once.
    func stop(_ error: DownloadError) {
        state.withLock { end(&$0, .failed(error), stopTransport: true) }.run()
    }

    /// Starts the request on `transport` and waits for the outcome, which comes as soon as the sink
    /// ends, even if the transport is slow to notice its cancellation.
    func run(on transport: any Transport) async -> Outcome {
        await withCheckedContinuation { continuation in
            let pending = state.withLock { state -> Outcome? in
                if let pending = state.pending { return pending }
                state.continuation = continuation
                return nil
            }
            if let pending {
                continuation.resume(returning: pending)
                return
            }
            let handle = transport.startTransfer(TransferRequest(url: url), to: self)
            let cancelNow = state.withLock { state -> Bool in
                if case .done = state.phase { return true }
                state.handle = handle
                return false
            }
            if cancelNow { handle.cancel() }
        }
    }

    /// Why bytes with this prefix do not fit `kinds`, or nil when they do (or any kind goes).
    static func kindError(_ prefix: [UInt8], _ kinds: Set<AttachmentKind>?) -> DownloadError? {
        guard let kinds else { return nil }
        let wanted = kinds.map(\.rawValue).sorted().joined(separator: " or ")
        guard let type = MediaType.sniff(prefix) else {
            return DownloadError(.unsupportedType, "the bytes are of no supported type (wanted \(wanted))")
        }
        guard kinds.contains(type.kind) else {
            return DownloadError(.unsupportedType, "the bytes are \(type.uti), not \(wanted)")
        }
        return nil
    }

    // MARK: - Ending

    /// What to do after the lock is released.
    private struct Effects {
        var resume: (CheckedContinuation<Outcome, Never>, Outcome)?
        var cancel: (any TransferHandle)?

        func run() {
            if let (continuation, outcome) = resume { continuation.resume(returning: outcome) }
            cancel?.cancel()
        }
    }

    /// Moves to `.done` with `outcome`: closes the file, removes it unless the body is complete,
    /// and returns the continuation to resume and the transfer to cancel.
    private func end(_ state: inout State, _ outcome: Outcome, stopTransport: Bool) -> Effects {
        if case .done = state.phase { return Effects() }
        if case .streaming(_, let file, _, _) = state.phase {
            try? file.close()
            if case .completed = outcome {} else { try? FileManager.default.removeItem(at: partialFile) }
        }
        state.phase = .done
        var effects = Effects()
        if let continuation = state.continuation {
            effects.resume = (continuation, outcome)
            state.continuation = nil
        } else {
            state.pending = outcome
        }
        if stopTransport { effects.cancel = state.handle }
        state.handle = nil
        return effects
    }
}
