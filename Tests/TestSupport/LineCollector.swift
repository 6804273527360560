import Foundation
import Synchronization

/// Collects the lines a child process writes to a pipe, on a thread of its own, so that a test
/// can wait for them while the process runs.
public final class LineCollector: Sendable {
    private let state = Mutex<(lines: [String], partial: [UInt8], closed: Bool)>(([], [], false))

    public init() {}

    /// Starts reading `handle` until its end.
    public func read(_ handle: FileHandle) {
        Thread {
            while true {
                let data = handle.availableData
                let closed = data.isEmpty
                self.state.withLock { s in
                    s.partial += data
                    while let newline = s.partial.firstIndex(of: 0x0A) {
                        s.lines.append(String(decoding: s.partial[..<newline], as: UTF8.self))
                        s.partial.removeSubrange(...newline)
                    }
                    if closed { s.closed = true }
                }
                if closed { return }
            }
        }.start()
    }

    /// The whole lines read so far.
    public var all: [String] { state.withLock { $0.lines } }
    /// Whether the pipe has ended.
    public var isClosed: Bool { state.withLock { $0.closed } }
}
