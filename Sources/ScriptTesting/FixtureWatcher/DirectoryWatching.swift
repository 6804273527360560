/// Paths that changed in the watched directories during one burst of activity.
public struct FileChanges: Sendable, Hashable {
    /// The paths written, created, deleted, or renamed to or from (directory path + name).
    public var paths: Set<String>
    /// Whether events were lost (the kernel's queue overflowed): anything may have changed.
    public var overflowed: Bool

    /// Changes.
    public init(paths: Set<String> = [], overflowed: Bool = false) {
        self.paths = paths
        self.overflowed = overflowed
    }
}

/// Watches directories (not files: an editor that saves by renaming a new file over the old
/// one replaces the inode, and only the directory sees it) and reports what changed in them,
/// a burst of events at a time.
///
/// The seam between the watch loop and the platform: ``PlatformDirectoryWatcher`` picks one.
public protocol DirectoryWatching: AnyObject, Sendable {
    /// Watches exactly these directories from now on (absolute, standardized paths);
    /// directories that do not exist are skipped.
    func watch(_ directories: Set<String>)
    /// The changes, one element per burst once it has been quiet for the debounce interval.
    /// Ends when ``stop()`` is called.
    var changes: AsyncStream<FileChanges> { get }
    /// Stops watching and ends ``changes``.
    func stop()
}

/// Watching could not be set up.
public struct WatchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// An error.
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// The platform's ``DirectoryWatching``, chosen here and nowhere else: inotify on Linux
/// (``InotifyDirectoryWatcher``), elsewhere the portable ``PollingDirectoryWatcher``.
public enum PlatformDirectoryWatcher {
    /// A watcher for this platform.
    ///
    /// - Throws: ``WatchError`` when the platform's watcher cannot start; the message says
    ///   what would let it start.
    public static func make() throws(WatchError) -> any DirectoryWatching {
        #if os(Linux)
        do { return try InotifyDirectoryWatcher() } catch {
            throw WatchError(message: "\(error.message) (raise the inotify limits)")
        }
        #else
        return PollingDirectoryWatcher()
        #endif
    }
}
