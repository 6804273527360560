import Synchronization

/// The stop switch of one download across its redirects: a timeout, the deadline or
/// cancellation stops whichever transfer is running, and keeps any later one from starting.
final class DownloadControl: Sendable {
    private struct State {
        var current: TransferSink?
        var stopped: DownloadError?
    }

    private let state = Mutex(State())

    /// Makes `sink` the running transfer; returns the error that stopped the download instead
    /// when it was already stopped.
    func begin(_ sink: TransferSink) -> DownloadError? {
        state.withLock { state in
            if let stopped = state.stopped { return stopped }
            state.current = sink
            return nil
        }
    }

    /// Stops the download with `error`, unless it was stopped already.
    func stop(_ error: DownloadError) {
        let (sink, reason) = state.withLock { state -> (TransferSink?, DownloadError) in
            if state.stopped == nil { state.stopped = error }
            return (state.current, state.stopped ?? error)
        }
        sink?.stop(reason)
    }
}
