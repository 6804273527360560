import Foundation
import Synchronization

/// Writes answers to standard output in input order as they become ready: an answer that is
/// ready before those of earlier lines waits for them.
final class OrderedOutput: Sendable {
    private struct State {
        var next = 0
        var ready: [Int: String] = [:]
    }

    private let state = Mutex(State())
    private let written: @Sendable () -> Void

    /// An output that calls `written` after each line it writes.
    init(written: @escaping @Sendable () -> Void) {
        self.written = written
    }

    /// Hands over the answer of line `index` (counting from 0); writes it and every answer
    /// after it that is ready, when all before it are written.
    func put(_ index: Int, _ line: String) {
        state.withLock { s in
            s.ready[index] = line
            // Written under the lock, so that answers never overtake one another.
            while let next = s.ready.removeValue(forKey: s.next) {
                FileHandle.standardOutput.write(Data((next + "\n").utf8))
                s.next += 1
                written()
            }
        }
    }
}
