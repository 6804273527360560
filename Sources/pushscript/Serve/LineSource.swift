import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's `read`, which ``LineSource/read(_:)`` hides by its name.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}

/// The C library's `poll`, which ``LineSource/poll(reading:)`` hides by its name.
private func systemPoll(_ entries: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.poll(entries, nfds_t(count), timeout)
    #else
    Darwin.poll(entries, nfds_t(count), timeout)
    #endif
}

/// One line of `serve`'s input, as read.
enum InputLine {
    /// A whole line, without its line end.
    case line([UInt8])
    /// A line longer than the cap: its first bytes (where its `id` may be found) and its whole
    /// length. The rest was read past without being kept.
    case tooLong(head: [UInt8], length: Int)
}

/// Standard input's lines for `serve`, read by whoever asks while input is ready (a file, or a
/// pipe with data waiting), so that a line in and its answer out wake no other thread; when
/// reading would wait, ``fill()`` reads on a thread of its own, so that waiting for input never
/// holds a thread that runs scripts.
///
/// A line longer than `maximumLineBytes` is never held whole: its first ``headBytes`` are kept
/// and the rest is read past. Not thread-safe: its owner serializes the calls.
final class LineSource {
    private let descriptor: Int32
    private let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where the next line begins in `buffer`.
    private var start = 0
    /// How far past `start` the buffer is known to hold no line end.
    private var scanned = 0
    private var ended = false
    /// While a line past the cap is read past: its head and how many bytes it had so far.
    private var skipping: (head: [UInt8], length: Int)?
    private var waitingReader: InputThread?
    /// When the last bytes were buffered (after the read that brought them returned): every
    /// line taken since arrived no later than this.
    private(set) var lastReadAt = ContinuousClock.now

    /// The most bytes one read takes.
    static let chunkSize = 64 * 1024
    /// How many bytes of a line past the cap are kept to find its `id` in.
    static let headBytes = 4096

    /// The lines of the file open as `descriptor` (standard input by default), each at most
    /// `maximumLineBytes` long.
    init(descriptor: Int32 = STDIN_FILENO, maximumLineBytes: Int = .max) {
        self.descriptor = descriptor
        self.maximumLineBytes = max(1, maximumLineBytes)
    }

    /// What ``poll()`` found.
    enum Poll {
        case line(InputLine)
        /// The end of input: no line is left.
        case end
        /// No whole line is buffered and reading would wait: call ``requestFill(_:)``.
        case wouldWait
    }

    /// The next line when one is buffered or input is ready, reading what is ready unless
    /// `reading` is false (a read requested with ``requestFill(_:)`` has not come back: bytes
    /// read now would overtake its bytes).
    func poll(reading: Bool = true) -> Poll {
        while true {
            if let line = takeBuffered() { return .line(line) }
            if ended { return .end }
            guard reading, isReady else { return .wouldWait }
            append(Self.read(descriptor))
        }
    }

    /// Reads, on a thread of its own, until input comes (or ends), and hands what it read to
    /// `done` there; the owner passes it to ``append(_:)``. One request at a time.
    func requestFill(_ done: @escaping @Sendable ([UInt8]) -> Void) {
        reader.read(done)
    }

    /// Buffers bytes read (none: the end of input).
    func append(_ bytes: [UInt8]) {
        lastReadAt = ContinuousClock.now
        dropConsumed()
        if bytes.isEmpty { ended = true } else { buffer += bytes }
    }

    /// The bytes of `range` in a new array. (The buffer is reached by a mutating access, which
    /// retains nothing: a read of it would retain it, and its count would move between the
    /// lanes' cores with every line.)
    private func copy(_ range: Range<Int>) -> [UInt8] {
        buffer.withUnsafeMutableBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// A whole line from the buffer, if one is there (or the last one, at the end of input).
    private func takeBuffered() -> InputLine? {
        let newline = buffer.withUnsafeMutableBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, scanned < bytes.count,
                let found = memchr(base + scanned, Int32(UInt8(ascii: "\n")), bytes.count - scanned)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        if var skipped = skipping {
            // Reading past a line over the cap: nothing of it is kept but its head.
            let end = newline ?? buffer.count
            skipped.length += end - start
            if newline == nil && !ended {
                start = buffer.count
                scanned = start
                skipping = skipped
                return nil
            }
            skipping = nil
            start = min(end + 1, buffer.count)
            scanned = start
            return .tooLong(head: skipped.head, length: skipped.length)
        }
        if let newline {
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let length = end - start
            let line: InputLine = length > maximumLineBytes
                ? .tooLong(head: copy(start..<(start + min(Self.headBytes, length))), length: length)
                : .line(copy(start..<end))
            start = newline + 1
            scanned = start
            return line
        }
        scanned = buffer.count
        let pending = buffer.count - start
        if pending > maximumLineBytes {
            skipping = (copy(start..<(start + min(Self.headBytes, pending))), 0)
            // The bytes from `start` are counted again when the line's end is found: none is
            // dropped before.
            skipping!.length = pending
            start = buffer.count
            scanned = start
            return nil
        }
        if ended {
            guard start < buffer.count else { return nil }
            let line = InputLine.line(copy(start..<buffer.count))
            start = buffer.count
            scanned = start
            return line
        }
        return nil
    }

    /// Whether a read would return at once (with data, or at the end of input).
    private var isReady: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return systemPoll(&entry, 1, 0) > 0
    }

    private var reader: InputThread {
        if let waitingReader { return waitingReader }
        let made = InputThread(descriptor: descriptor)
        waitingReader = made
        return made
    }

    /// Forgets the lines already handed out.
    private func dropConsumed() {
        guard start > 0 else { return }
        buffer.removeFirst(start)
        scanned -= start
        start = 0
    }

    /// Up to ``chunkSize`` bytes from `descriptor`; empty at the end of input (or when it
    /// cannot be read).
    static func read(_ descriptor: Int32) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, chunkSize) }
            if count < 0, errno == EINTR { continue }
            chunk.removeLast(chunkSize - max(count, 0))
            return chunk
        }
    }
}

/// A thread that makes the reads of a ``LineSource`` that would wait for input.
private final class InputThread: Sendable {
    private let asked = DispatchSemaphore(value: 0)
    private let waiting = Mutex<(@Sendable ([UInt8]) -> Void)?>(nil)

    init(descriptor: Int32) {
        let thread = Thread { [self] in
            while true {
                asked.wait()
                let bytes = LineSource.read(descriptor)
                waiting.withLock { $0.take() }?(bytes)
                if bytes.isEmpty { return }
            }
        }
        thread.name = "serve-input"
        thread.start()
    }

    /// Reads the next bytes of input on this thread and hands them to `done`.
    func read(_ done: @escaping @Sendable ([UInt8]) -> Void) {
        waiting.withLock { $0 = done }
        asked.signal()
    }
}
