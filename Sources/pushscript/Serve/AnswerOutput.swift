import Glibc
import Synchronization

/// Writes `serve`'s answers to standard output, one line each: as soon as each is ready, or,
/// `ordered`, in input order (an answer ready before those of earlier lines waits for them).
///
/// A write that fails (standard output closed: EPIPE, with SIGPIPE ignored) marks the output
/// closed: `closed` is called once, and answers from then on are counted as dropped.
final class AnswerOutput: Sendable {
    private struct State {
        var next = 0
        var ready: [Int: (line: [UInt8], cost: Int)] = [:]
        var isClosed = false
        var written = 0
        var dropped = 0
    }

    private let state = Mutex(State())
    private let ordered: Bool
    private let descriptor: Int32
    private let released: @Sendable (Int) -> Void
    private let closed: @Sendable () -> Void

    /// An output that calls `released` with a line's cost once its answer is written (or
    /// dropped), and `closed` when standard output can no longer be written.
    init(
        ordered: Bool, descriptor: Int32 = STDOUT_FILENO, released: @escaping @Sendable (Int) -> Void,
        closed: @escaping @Sendable () -> Void
    ) {
        self.ordered = ordered
        self.descriptor = descriptor
        self.released = released
        self.closed = closed
    }

    /// Writes nothing more: answers from now on are counted as dropped.
    func close() {
        state.withLock { $0.isClosed = true }
    }

    /// How many answers were written.
    var writtenCount: Int { state.withLock { $0.written } }
    /// How many answers could not be written (standard output closed).
    var droppedCount: Int { state.withLock { $0.dropped } }

    /// Hands over the answer of line `index` (counting from 0): `line` (its newline included)
    /// and what the line cost the read-ahead window.
    func put(_ index: Int, _ line: [UInt8], cost: Int) {
        var costs: [Int] = []
        let closedNow = state.withLock { s -> Bool in
            let wasClosed = s.isClosed
            if !ordered {
                write(line, &s)
                costs.append(cost)
            } else {
                s.ready[index] = (line, cost)
                // Written under the lock, so that answers never overtake one another.
                while let next = s.ready.removeValue(forKey: s.next) {
                    write(next.line, &s)
                    costs.append(next.cost)
                    s.next += 1
                }
            }
            return s.isClosed && !wasClosed
        }
        for cost in costs { released(cost) }
        if closedNow { closed() }
    }

    private func write(_ line: [UInt8], _ s: inout State) {
        guard !s.isClosed else {
            s.dropped += 1
            return
        }
        if Self.writeAll(line, to: descriptor) {
            s.written += 1
        } else {
            s.isClosed = true
            s.dropped += 1
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
