#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// ``DirectoryWatching`` over Linux's inotify: one watch per directory, read by a thread of its
/// own that gathers events until they have been quiet for the debounce interval. The thread
/// runs until ``stop()``, which must be called to let the watcher go.
public final class InotifyDirectoryWatcher: DirectoryWatching {
    /// The changes, a burst at a time.
    public let changes: AsyncStream<FileChanges>
    private let continuation: AsyncStream<FileChanges>.Continuation
    private let descriptor: Int32
    private let debounce: Duration
    /// Watch descriptor → the directory paths it was added for (one inode may be reached by
    /// more than one path).
    private let watches = Mutex<[Int32: Set<String>]>([:])
    private let stopped = Atomic<Bool>(false)

    /// The events that matter: a file written and closed, deleted, or renamed either way, and
    /// a folder created. A file being written counts once it is closed, so a save seen half
    /// done (truncated, not yet written) does not start a run.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

    /// A watcher whose bursts end after `debounce` without events.
    ///
    /// - Throws: ``WatchError`` when inotify cannot be set up.
    public init(debounce: Duration = .milliseconds(50)) throws(WatchError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw WatchError(message: "cannot start inotify: \(String(cString: strerror(errno)))") }
        descriptor = fd
        self.debounce = debounce
        (changes, continuation) = AsyncStream.makeStream(of: FileChanges.self, bufferingPolicy: .unbounded)
        let thread = Thread { [self] in readLoop() }
        thread.name = "inotify"
        thread.start()
    }

    public func watch(_ directories: Set<String>) {
        watches.withLock { watches in
            // Once stopped, the descriptor is closed (or closing): its number may be reused.
            guard !stopped.load(ordering: .acquiring) else { return }
            let current = watches.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            for (wd, paths) in watches where paths.isDisjoint(with: directories) {
                inotify_rm_watch(descriptor, wd)
                watches[wd] = nil
            }
            for directory in directories.subtracting(current) {
                let wd = inotify_add_watch(descriptor, directory, Self.mask | UInt32(IN_ONLYDIR))
                if wd >= 0 { watches[wd, default: []].insert(directory) }
            }
        }
    }

    public func stop() {
        watches.withLock { _ in stopped.store(true, ordering: .releasing) }
    }

    /// Reads events until stopped; closes the descriptor and ends the stream then.
    private func readLoop() {
        var pending = FileChanges()
        var quietSince = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stopped.load(ordering: .acquiring) {
            var pfd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let waitMs = pending.paths.isEmpty && !pending.overflowed ? 100 : max(1, Int32(debounce.milliseconds))
            if poll(&pfd, 1, waitMs) > 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    parse(buffer, count: count, into: &pending)
                    quietSince = .now
                }
            }
            if !pending.paths.isEmpty || pending.overflowed, ContinuousClock.now - quietSince >= debounce {
                continuation.yield(pending)
                pending = FileChanges()
            }
        }
        close(descriptor)
        continuation.finish()
    }

    /// Adds the paths of the events in `buffer[0..<count]` to `changes`.
    private func parse(_ buffer: [UInt8], count: Int, into changes: inout FileChanges) {
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset + header <= count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changes.overflowed = true
                    continue
                }
                // A new file is reported when it is closed after writing.
                if mask & UInt32(IN_CREATE) != 0, mask & UInt32(IN_ISDIR) == 0 { continue }
                let directories = watches.withLock { watches -> Set<String> in
                    if mask & UInt32(IN_IGNORED) != 0 { return watches.removeValue(forKey: wd) ?? [] }
                    return watches[wd] ?? []
                }
                let name = String(decoding: nameBytes, as: UTF8.self)
                for directory in directories {
                    changes.paths.insert(name.isEmpty ? directory : directory + "/" + name)
                }
            }
        }
    }
}

#endif
