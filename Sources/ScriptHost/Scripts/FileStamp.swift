#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says about a file (a script, a module, a state file): enough to tell that it
/// changed without reading it.
///
/// A change of content shows as a new size, modification or change time (nanoseconds), or a new
/// inode (an editor that saves by renaming a new file over the old one).
package struct FileStamp: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    /// Modification time in nanoseconds since the epoch.
    package var modified: Int64
    /// Status change time in nanoseconds since the epoch.
    package var changed: Int64

    /// How recent a stamp's times may be for a change within the same clock tick to go
    /// unseen: file times come from a coarse clock (one kernel tick, up to 10 ms), so a file
    /// written twice within one tick at the same size keeps its stamp. A version read within
    /// this window of its times is read again on the next lookup.
    package static let settleTime: Int64 = 50_000_000

    /// Whether a later change of the file must show in its stamp, judged at `now` (ns since
    /// the epoch).
    package func isSettled(at now: Int64) -> Bool {
        now - max(modified, changed) >= Self.settleTime
    }
}

/// What looking at a script's path found.
enum FileObservation: Sendable {
    /// A regular file with this stamp.
    case file(FileStamp)
    /// Nothing at the path.
    case absent
    /// Something that cannot be read as a script (a folder, no permission): why.
    case unreadable(String)
}

/// What reading a script file found.
enum FileContents: Sendable {
    /// The file's bytes and the stamp of what was read.
    case bytes([UInt8], FileStamp)
    /// The file is larger than the limit: its stamp.
    case tooLarge(FileStamp)
    /// Nothing at the path.
    case absent
    /// It cannot be read: why.
    case unreadable(String)
}

/// The platform's file calls, kept here so the script directory, modules and state files do
/// not see them.
package enum ScriptFileSystem {
    /// Stats `path` (following symbolic links).
    static func observe(_ path: String) -> FileObservation {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .absent : .unreadable(describe(code))
        }
        guard isRegularFile(info) else { return .unreadable("it is not a regular file") }
        return .file(stamp(info))
    }

    /// The stamp of whatever is at `path` (following symbolic links), nil when nothing is.
    package static func stamp(at path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return stamp(info)
    }

    /// Reads at most `limit + 1` bytes of `path`, with the stamp of the file actually opened.
    static func contents(of path: String, limit: Int) -> FileContents {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .absent : .unreadable(describe(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unreadable(describe(errno)) }
        guard isRegularFile(info) else { return .unreadable("it is not a regular file") }
        let fileStamp = stamp(info)
        guard fileStamp.size <= Int64(limit) else { return .tooLarge(fileStamp) }
        // Sized by the file (one byte more, to see it grow), not by the limit: the array is kept
        // as the source, and a host of many scripts keeps one each.
        var bytes = [UInt8](repeating: 0, count: Int(fileStamp.size) + 1)
        var count = 0
        while count < bytes.count || (count == bytes.count && bytes.count <= limit) {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count)) }
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return .unreadable(describe(errno))
            }
            count += n
        }
        // The file grew while it was read.
        guard count <= limit else { return .tooLarge(fileStamp) }
        bytes.removeSubrange(count...)
        return .bytes(bytes, fileStamp)
    }

    /// Now on the clock file times are taken from, in nanoseconds since the epoch.
    package static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    private static func isRegularFile(_ info: stat) -> Bool {
        (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func stamp(_ info: stat) -> FileStamp {
        #if os(Linux)
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #else
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #endif
        return FileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: modified, changed: changed)
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
