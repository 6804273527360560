import Foundation
import Synchronization

/// Writes answers to standard output in input order as they become ready: an answer that is
/// ready before those of earlier lines waits for them.
final class OrderedOutput: Sendable {
    private struct State {
        var next = 0
        var ready: [Int: [UInt8]] = [:]
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
        put(index, bytes: Array((line + "\n").utf8))
    }

    /// As ``put(_:_:)``, with the line's UTF-8 bytes, its newline included.
    func put(_ index: Int, bytes line: [UInt8]) {
        state.withLock { s in
            s.ready[index] = line
            // Written under the lock, so that answers never overtake one another.
            while let next = s.ready.removeValue(forKey: s.next) {
                standardOutput(next)
                s.next += 1
                written()
            }
        }
    }
}

/// Writes `bytes` to standard output as they are, without copying them.
func standardOutput(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none))
    }
}
