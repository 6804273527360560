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

/// Standard input's lines for `serve`, read by the task that asks for them while input is
/// ready (a file, or a pipe with data waiting), so that a line in and its answer out wake no
/// other thread; when reading would wait, the read runs on a thread of its own, so that waiting
/// for input never holds a thread that runs scripts.
///
/// Used by one task at a time.
final class LineSource {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Where the next line begins in `buffer`.
    private var start = 0
    /// How far past `start` the buffer is known to hold no line end.
    private var scanned = 0
    private var ended = false
    private var waitingReader: InputThread?

    /// The most bytes one read takes.
    static let chunkSize = 64 * 1024

    /// The lines of the file open as `descriptor` (standard input by default).
    init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    /// The next line without its line end (`\n` or `\r\n`); nil at the end of input.
    func next() async -> String? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                scanned = start
                return line
            }
            scanned = buffer.count
            if ended {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                scanned = start
                return line
            }
            let bytes = isReady ? Self.read(descriptor) : await reader.read()
            dropConsumed()
            if bytes.isEmpty { ended = true } else { buffer += bytes }
        }
    }

    /// Whether a read would return at once (with data, or at the end of input).
    private var isReady: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
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
    private let waiting = Mutex<CheckedContinuation<[UInt8], Never>?>(nil)

    init(descriptor: Int32) {
        let thread = Thread { [self] in
            while true {
                asked.wait()
                let bytes = LineSource.read(descriptor)
                waiting.withLock { $0.take() }?.resume(returning: bytes)
                if bytes.isEmpty { return }
            }
        }
        thread.name = "serve-input"
        thread.start()
    }

    /// The next bytes of input, read on this thread.
    func read() async -> [UInt8] {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            asked.signal()
        }
    }
}
