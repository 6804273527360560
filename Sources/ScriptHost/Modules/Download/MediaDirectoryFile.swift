#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MediaDownloader
import NotificationModel

/// A file of the host's media directory (`--media-dir`), opened once for `content:attach`:
/// every component of its path is opened inside the folder without following a link
/// (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`), so that what is checked — a regular
/// file, its size — is what is copied, from the same descriptor. A link (to anywhere), a `..`,
/// a FIFO, a device, a socket or a folder is refused, with one line saying which.
///
/// Only POSIX calls (`open`, `openat`, `fstat`, `pread`, `read`, `write`): the same on Linux and
/// Apple platforms.
final class MediaDirectoryFile {
    /// The path as the script gave it, for messages.
    let shownPath: String
    /// The file's size when it was opened.
    let size: Int
    private let descriptor: Int32

    private init(shownPath: String, descriptor: Int32, size: Int) {
        self.shownPath = shownPath
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    /// Why a file of the media directory cannot be attached: one line, starting with
    /// `not allowed` when the file is not one the script may attach.
    struct Refusal: Error, Sendable {
        let message: String
    }

    /// Opens `relative` (a path inside `folder`, `/`-separated) and checks that it is a
    /// regular file.
    static func open(_ relative: String, in folder: URL, shownAs shown: String) throws(Refusal) -> MediaDirectoryFile {
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        guard let name = components.last else {
            throw Refusal(message: "not allowed: \(shown) names no file of the media directory")
        }
        if components.contains("..") {
            throw Refusal(message: "not allowed: \(shown) leaves the media directory ('..')")
        }
        var directory = openFile(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else {
            throw Refusal(message: "cannot read \(shown): the media directory cannot be opened (\(Self.reason(errno)))")
        }
        for component in components.dropLast() {
            let next = openat(directory, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            close(directory)
            guard next >= 0 else {
                if failure == ELOOP || failure == ENOTDIR {
                    throw Refusal(message: "not allowed: \(shown): '\(component)' is a link or not a folder; only files inside the media directory, reached without links, can be attached")
                }
                throw Refusal(message: "cannot read \(shown): \(Self.reason(failure))")
            }
            directory = next
        }
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        let failure = errno
        close(directory)
        guard fd >= 0 else {
            if failure == ELOOP { throw Refusal(message: "not allowed: \(shown) is a symbolic link; only regular files of the media directory can be attached") }
            if failure == ENXIO { throw Refusal(message: "not allowed: \(shown) is not a regular file (a socket or a FIFO no one writes)") }
            throw Refusal(message: "cannot read \(shown): \(Self.reason(failure))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = errno
            close(fd)
            throw Refusal(message: "cannot read \(shown): \(Self.reason(failure))")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw Refusal(message: "not allowed: \(shown) is \(Self.describe(kind)), not a regular file")
        }
        return MediaDirectoryFile(shownPath: shown, descriptor: fd, size: Int(info.st_size))
    }

    /// The file's first bytes, enough to tell its type.
    func head() throws(Refusal) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: MediaType.sniffLength)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw Refusal(message: "cannot read \(shownPath): \(Self.reason(errno))") }
        return Array(bytes.prefix(count))
    }

    /// Copies the file, from its own descriptor, into a new file at `target` (none may be
    /// there), at most ``size`` bytes: a file that grew since it was checked is cut there.
    /// Returns the bytes copied.
    func copy(to target: URL) throws(Refusal) -> Int {
        let out = openFile(target.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw Refusal(message: "cannot copy \(shownPath) for attaching: \(Self.reason(errno))") }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var copied = 0
        while copied < size {
            let want = min(buffer.count, size - copied)
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(copied)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                let failure = errno
                unlink(target.path)
                throw Refusal(message: "cannot copy \(shownPath) for attaching: \(Self.reason(failure))")
            }
            if got == 0 { break }
            var written = 0
            while written < got {
                let n = buffer.withUnsafeBytes { write(out, $0.baseAddress! + written, got - written) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    let failure = errno
                    unlink(target.path)
                    throw Refusal(message: "cannot copy \(shownPath) for attaching: \(Self.reason(failure))")
                }
                written += n
            }
            copied += got
        }
        return copied
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// `open(2)`, with the mode it takes when it creates.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Glibc)
    return Glibc.open(path, flags, mode)
    #else
    return Darwin.open(path, flags, mode)
    #endif
}
