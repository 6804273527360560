import Dispatch
import Foundation
import MediaDownloader
import Synchronization

/// A ``TransferReceiver`` that records what a transport reports, in order, and can cancel the
/// transfer from inside a report, on the transport's own thread.
final class RecordingReceiver: TransferReceiver {
    /// One report.
    enum Event: Equatable {
        case head(ResponseHead)
        case chunk([UInt8])
        case finish(String?)
    }

    private struct State {
        var events: [Event] = []
        var handle: (any TransferHandle)?
    }

    private let state = Mutex(State())
    private let ended = DispatchSemaphore(value: 0)
    /// Cancels the transfer when this many chunks have come (and goes on taking them).
    private let cancelAfterChunks: Int?
    /// Answers false to the head.
    private let refuseHead: Bool

    init(cancelAfterChunks: Int? = nil, refuseHead: Bool = false) {
        self.cancelAfterChunks = cancelAfterChunks
        self.refuseHead = refuseHead
    }

    /// Starts `request` on `transport` reporting here.
    func start(_ request: TransferRequest, on transport: any Transport) {
        state.withLock { state in
            state.handle = transport.startTransfer(request, to: self)
        }
    }

    /// Cancels the transfer from the calling thread.
    func cancel() {
        state.withLock { $0.handle }?.cancel()
    }

    /// The reports so far.
    var events: [Event] { state.withLock { $0.events } }

    /// The head reported, if any.
    var head: ResponseHead? {
        events.lazy.compactMap { if case .head(let head) = $0 { head } else { nil } }.first
    }

    /// The body's bytes reported, all chunks together.
    var body: [UInt8] {
        events.flatMap { event -> [UInt8] in if case .chunk(let bytes) = event { bytes } else { [] } }
    }

    /// The error message `finish` was given ("nil" for none), once it has been called.
    func waitForFinish(seconds: Double = 5) -> String? {
        guard ended.wait(timeout: .now() + seconds) == .success else { return nil }
        return events.lazy.compactMap { if case .finish(let message) = $0 { message ?? "nil" } else { nil } }.first
    }

    func receive(head: ResponseHead) -> Bool {
        state.withLock { $0.events.append(.head(head)) }
        return !refuseHead
    }

    func receive(chunk: Data) -> Bool {
        let handle = state.withLock { state -> (any TransferHandle)? in
            state.events.append(.chunk(Array(chunk)))
            let chunks = state.events.filter { if case .chunk = $0 { true } else { false } }.count
            return chunks == cancelAfterChunks ? state.handle : nil
        }
        handle?.cancel()
        return true
    }

    func finish(error: DownloadError?) {
        state.withLock { $0.events.append(.finish(error?.message)) }
        ended.signal()
    }
}
