import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes `serve`'s answers to standard output, one line each: as soon as each is ready, or,
/// `ordered`, in input order (an answer ready before those of earlier lines waits for them).
///
/// Answers ready together are written together: one `write` carries every answer made while
/// the last one was written, or in the last ``maximumDelay`` while lines keep coming. A lane
/// that is about to wait for input writes what is ready (``flush()``); while every lane is busy
/// with a long delivery, a thread of its own writes what has waited ``backstopDelay``. One
/// writer at a time, so answers never overtake one another.
///
/// A write that fails (standard output closed: EPIPE, with SIGPIPE ignored) marks the output
/// closed: `closed` is called once, and answers from then on are counted as dropped.
final class AnswerOutput: Sendable {
    /// How long an answer ready waits for others to be written with while lines keep coming.
    static let maximumDelay: Duration = .milliseconds(2)
    /// The longest an answer ready waits while every lane is busy with a delivery.
    static let backstopDelay: Duration = .milliseconds(5)
    /// How many bytes of ready answers are written at once without waiting for more.
    static let batchBytes = 32 * 1024

    private struct State {
        var next = 0
        var ready: [Int: (line: [UInt8], cost: Int)] = [:]
        /// Answers ready to write, in the order they are to be written.
        var pending: [UInt8] = []
        /// How many answers `pending` holds and what their lines cost the read-ahead window.
        var pendingLines = 0
        var pendingCost = 0
        /// When the oldest answer in `pending` was ready.
        var pendingSince: ContinuousClock.Instant?
        /// Whether a thread is writing (it writes what is pending before it stops).
        var writing = false
        /// Whether what is pending is to be written now, whatever its age.
        var flushRequested = false
        /// Whether the flushing thread waits to be told of a first answer pending.
        var flusherIdle = true
        var finished = false
        var isClosed = false
        var written = 0
        var dropped = 0
    }

    /// A batch taken to write.
    private struct Batch {
        var bytes: [UInt8]
        var lines: Int
        var cost: Int
    }

    private let state = Mutex(State())
    private let ordered: Bool
    private let descriptor: Int32
    private let released: @Sendable (_ lines: Int, _ bytes: Int) -> Void
    private let closed: @Sendable () -> Void
    private let flusherWake = DispatchSemaphore(value: 0)
    private let flusherEnded = DispatchSemaphore(value: 0)

    /// An output that calls `released` with how many lines and bytes of lines no longer count
    /// against the read-ahead window once their answers are written (or dropped), and `closed`
    /// when standard output can no longer be written.
    init(
        ordered: Bool, descriptor: Int32 = STDOUT_FILENO, released: @escaping @Sendable (_ lines: Int, _ bytes: Int) -> Void,
        closed: @escaping @Sendable () -> Void
    ) {
        self.ordered = ordered
        self.descriptor = descriptor
        self.released = released
        self.closed = closed
        let thread = Thread { [self] in flushWhileRunning() }
        thread.name = "serve-output"
        thread.start()
    }

    /// Writes nothing more: answers not yet written, and those from now on, are counted as
    /// dropped.
    func close() {
        let batch = state.withLock { s -> Batch? in
            s.isClosed = true
            return s.writing ? nil : take(&s)
        }
        if let batch { drop(batch) }
    }

    /// How many answers were written.
    var writtenCount: Int { state.withLock { $0.written } }
    /// How many answers could not be written (standard output closed).
    var droppedCount: Int { state.withLock { $0.dropped } }

    /// Hands over the answer of line `index` (counting from 0): `line` (its newline included)
    /// and what the line cost the read-ahead window.
    func put(_ index: Int, _ line: [UInt8], cost: Int) {
        var wakeFlusher = false
        let batch = state.withLock { s -> Batch? in
            let now = ContinuousClock.now
            if !ordered {
                append(line, cost: cost, at: now, &s)
            } else {
                s.ready[index] = (line, cost)
                while let next = s.ready.removeValue(forKey: s.next) {
                    append(next.line, cost: next.cost, at: now, &s)
                    s.next += 1
                }
            }
            guard !s.writing, let since = s.pendingSince else { return nil }
            if s.pending.count >= Self.batchBytes || now - since >= Self.maximumDelay || s.isClosed {
                s.writing = true
                return take(&s)
            }
            if s.flusherIdle {
                s.flusherIdle = false
                wakeFlusher = true
            }
            return nil
        }
        if wakeFlusher { flusherWake.signal() }
        if let batch { write(batch) }
    }

    /// Writes every answer ready now (at once, or right after the write under way).
    func flush() {
        let batch = state.withLock { s -> Batch? in
            guard s.pendingSince != nil else { return nil }
            s.flushRequested = true
            guard !s.writing else { return nil }
            s.writing = true
            return take(&s)
        }
        if let batch { write(batch) }
    }

    /// Writes every answer ready and ends the flushing thread; called once no answer is to
    /// come.
    func finish() {
        flush()
        state.withLock { $0.finished = true }
        flusherWake.signal()
        flusherEnded.wait()
        // A write under way when `flush` was called wrote what was pending after it.
    }

    private func append(_ line: [UInt8], cost: Int, at now: ContinuousClock.Instant, _ s: inout State) {
        if s.pendingSince == nil { s.pendingSince = now }
        s.pending += line
        s.pendingLines += 1
        s.pendingCost += cost
    }

    /// Takes what is pending (nil when nothing is), leaving room for the next answers.
    private func take(_ s: inout State) -> Batch? {
        s.flushRequested = false
        guard s.pendingSince != nil else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(s.pending.count, Self.batchBytes))
        swap(&bytes, &s.pending)
        let batch = Batch(bytes: bytes, lines: s.pendingLines, cost: s.pendingCost)
        s.pendingLines = 0
        s.pendingCost = 0
        s.pendingSince = nil
        return batch
    }

    /// Writes `batch`, then what became pending meanwhile if it is to be written now; then
    /// gives up being the writer. Called by the one thread that set `writing`.
    private func write(_ first: Batch) {
        var next: Batch? = first
        var closedNow = false
        while let batch = next {
            let ok = !state.withLock { $0.isClosed } && Self.writeAll(batch.bytes, to: descriptor)
            next = state.withLock { s -> Batch? in
                if ok {
                    s.written += batch.lines
                } else {
                    if !s.isClosed { closedNow = true }
                    s.isClosed = true
                    s.dropped += batch.lines
                }
                guard let since = s.pendingSince,
                    s.flushRequested || s.isClosed || s.pending.count >= Self.batchBytes
                        || ContinuousClock.now - since >= Self.maximumDelay
                else {
                    s.writing = false
                    if s.pendingSince != nil, s.flusherIdle {
                        s.flusherIdle = false
                        flusherWake.signal()
                    }
                    return nil
                }
                return take(&s)
            }
            released(batch.lines, batch.cost)
        }
        if closedNow { closed() }
    }

    /// Counts `batch` as dropped (standard output closed).
    private func drop(_ batch: Batch) {
        state.withLock { $0.dropped += batch.lines }
        released(batch.lines, batch.cost)
    }

    /// The flushing thread: told of a first answer pending, it writes what is pending once it
    /// has waited ``backstopDelay`` (unless a lane wrote it first), until ``finish()``. While
    /// lines keep coming it wakes about once per ``backstopDelay``, and never in between.
    private func flushWhileRunning() {
        while true {
            flusherWake.wait()
            while true {
                let step = state.withLock { s -> (wait: Duration?, batch: Batch?, stop: Bool) in
                    if s.finished { return (nil, nil, true) }
                    guard let since = s.pendingSince else {
                        s.flusherIdle = true
                        return (nil, nil, false)
                    }
                    let age = ContinuousClock.now - since
                    if age < Self.backstopDelay { return (Self.backstopDelay - age, nil, false) }
                    s.flushRequested = true
                    guard !s.writing else {
                        // The writer writes it when it is done; look again after a while.
                        return (Self.backstopDelay, nil, false)
                    }
                    s.writing = true
                    return (nil, take(&s), false)
                }
                if step.stop {
                    flusherEnded.signal()
                    return
                }
                if let batch = step.batch {
                    write(batch)
                    continue
                }
                guard let wait = step.wait else { break }
                let (seconds, attoseconds) = wait.components
                usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000) + 1)
            }
        }
    }

    /// Writes every byte of `bytes`; false when the descriptor refuses them.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }
}
