import Foundation
import Synchronization

/// ``DirectoryWatching`` that needs nothing of the platform: a thread of its own lists the
/// watched directories every `interval` and compares each entry's inode, size and modification
/// time with the last listing, gathering what changed until a listing finds nothing new for the
/// debounce interval. The thread runs until ``stop()``, which must be called to let the watcher
/// go.
///
/// It reports what inotify reports, as a directory sees it: files and folders created,
/// written, deleted, or renamed either way, and a watched directory that goes away (which is
/// watched no more). A file written twice within one tick of the file system's clock at the
/// same size keeps its stamp: a file modified within ``settleTime`` of a listing is hashed, so
/// that the next listing still sees such a write. A file seen half written is reported again
/// once it is whole (inotify waits for it to be closed). A rename that makes and removes a file
/// between two listings shows only as the file it replaced.
public final class PollingDirectoryWatcher: DirectoryWatching {
    /// The changes, a burst at a time.
    public let changes: AsyncStream<FileChanges>
    private let continuation: AsyncStream<FileChanges>.Continuation
    private let interval: Duration
    private let debounce: Duration
    /// Directory path → its last listing.
    private let listings = Mutex<[String: Listing]>([:])
    private let stopped = Atomic<Bool>(false)

    /// How recent a file's modification time may be for a write in the same clock tick to
    /// keep its stamp (file times come from a coarse clock, up to 10 ms a tick).
    static let settleTime: TimeInterval = 0.05
    /// The largest file hashed when its stamp has not settled; a larger one is compared by its
    /// stamp alone.
    static let largestHashed = 1 << 20

    /// A watcher that lists every `interval` and whose bursts end after `debounce` without
    /// changes.
    public init(interval: Duration = .milliseconds(100), debounce: Duration = .milliseconds(50)) {
        self.interval = interval
        self.debounce = debounce
        (changes, continuation) = AsyncStream.makeStream(of: FileChanges.self, bufferingPolicy: .unbounded)
        let thread = Thread { [self] in pollLoop() }
        thread.name = "directory polling"
        thread.start()
    }

    public func watch(_ directories: Set<String>) {
        listings.withLock { listings in
            guard !stopped.load(ordering: .acquiring) else { return }
            for directory in listings.keys where !directories.contains(directory) {
                listings[directory] = nil
            }
            // The listing a directory is first watched with is what later ones compare with.
            for directory in directories where listings[directory] == nil {
                if let listing = Self.list(directory, previous: nil) { listings[directory] = listing }
            }
        }
    }

    public func stop() {
        listings.withLock { _ in stopped.store(true, ordering: .releasing) }
    }

    /// Lists until stopped; ends the stream then.
    private func pollLoop() {
        var pending = FileChanges()
        var quietSince = ContinuousClock.now
        while !stopped.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: Self.seconds(pending.paths.isEmpty ? interval : min(interval, debounce)))
            let found = scan()
            if !found.isEmpty {
                pending.paths.formUnion(found)
                quietSince = .now
            }
            if !pending.paths.isEmpty, ContinuousClock.now - quietSince >= debounce {
                continuation.yield(pending)
                pending = FileChanges()
            }
        }
        continuation.finish()
    }

    /// Lists every watched directory again; returns the paths that changed since the last
    /// listing.
    func scan() -> Set<String> {
        listings.withLock { listings in
            var changed = Set<String>()
            for (directory, old) in listings {
                guard let (new, names) = Self.relist(directory, previous: old) else {
                    // The directory went away: so did everything in it, and its watch.
                    changed.insert(directory)
                    for name in old.keys { changed.insert(directory + "/" + name) }
                    listings[directory] = nil
                    continue
                }
                for name in names { changed.insert(directory + "/" + name) }
                listings[directory] = new
            }
            return changed
        }
    }

    /// The entries of `directory` (hidden ones too, as inotify sees them); nil when it is no
    /// directory (any more).
    static func list(_ directory: String, previous: Listing?) -> Listing? {
        relist(directory, previous: previous)?.listing
    }

    /// The entries of `directory` and the names that differ from `previous` (created, deleted,
    /// replaced or written); nil when it is no directory (any more).
    static func relist(_ directory: String, previous: Listing?) -> (listing: Listing, changed: Set<String>)? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
              let names = try? fm.contentsOfDirectory(atPath: directory)
        else { return nil }
        var listing = Listing()
        var changed = Set(previous.map { Array($0.keys) } ?? []).subtracting(names)
        let now = Date()
        for name in names {
            let path = directory + "/" + name
            guard let attributes = try? fm.attributesOfItem(atPath: path) else {
                // Gone between the listing and its stat.
                if previous?[name] != nil { changed.insert(name) }
                continue
            }
            var stamp = EntryStamp(attributes)
            let old = previous?[name]
            var hash: Int?
            if !stamp.isDirectory, stamp.size <= largestHashed {
                // A stamp that has not settled may not show the next write: its content is
                // kept to compare with, and compared once while the stamp stays the same.
                let unsettled = stamp.modified.map { now.timeIntervalSince($0) < settleTime } ?? true
                if unsettled || (old?.contentHash != nil && old?.withoutHash == stamp) { hash = contentHash(path) }
                stamp.contentHash = unsettled ? hash : nil
            }
            if let old {
                if old.withoutHash != stamp.withoutHash { changed.insert(name) }
                else if let before = old.contentHash, let hash, before != hash { changed.insert(name) }
            } else if previous != nil {
                changed.insert(name)
            }
            listing[name] = stamp
        }
        return (listing, changed)
    }

    /// A hash of the file's bytes; nil when it cannot be read.
    private static func contentHash(_ path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var hasher = Hasher()
        hasher.combine(data)
        return hasher.finalize()
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// One directory's entries by name.
    typealias Listing = [String: EntryStamp]

    /// What a listing knows of an entry.
    struct EntryStamp: Hashable {
        var isDirectory: Bool
        var inode: UInt64
        var size: Int64
        var modified: Date?
        /// The hash of the content, for a file whose stamp had not settled.
        var contentHash: Int?

        init(_ attributes: [FileAttributeKey: Any]) {
            isDirectory = (attributes[.type] as? FileAttributeType) == .typeDirectory
            inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
            size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            modified = attributes[.modificationDate] as? Date
            if isDirectory {
                // A folder's own times change with what is in it, which its own watch reports.
                size = 0
                modified = nil
            }
        }

        /// The stamp without its hash.
        var withoutHash: EntryStamp {
            var stamp = self
            stamp.contentHash = nil
            return stamp
        }
    }
}
