import Dispatch
import Foundation

/// Reads standard input line by line on a thread of its own, so that waiting for input never
/// holds a thread of the cooperative pool, and never more than `window` lines ahead of the
/// answers written: each line takes a slot, and writing its answer gives the slot back.
final class LineReader: Sendable {
    private let slots: DispatchSemaphore

    /// A reader that keeps at most `window` lines unanswered.
    init(window: Int) {
        // Made at 0 and signalled up: a semaphore made with a count must not be freed below it.
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, window) { slots.signal() }
    }

    /// The lines of standard input, without their line ends, until end of file.
    func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let slots = self.slots
        let thread = Thread {
            while true {
                slots.wait()
                guard let line = readLine(strippingNewline: true) else {
                    continuation.finish()
                    return
                }
                continuation.yield(line)
            }
        }
        thread.name = "serve-input"
        thread.start()
        return stream
    }

    /// Gives back the slot of a line whose answer was written (or that needs none).
    func release() { slots.signal() }
}
