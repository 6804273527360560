import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure to read or write a state file, for a person.
package struct StateFileError: Error {
    package let message: String
}

/// One JSON file of an app's state under `--state DIR` (`DIR/<app>.<kind>.json`), shared by
/// every process that uses the folder.
///
/// Writes replace the file at once (a temporary file renamed over it), so a reader never sees
/// half a file. Read-modify-write runs under an exclusive `flock` on a lock file beside it
/// (`<file>.lock`), which excludes other processes and other `StateFile`s of this process
/// alike (each call opens the lock file anew, and `flock` locks belong to the open file).
/// A file that is not what it should be is renamed aside (`<file>.corrupt-<timestamp>`),
/// never removed.
package struct StateFile: Sendable {
    /// The data file.
    package let url: URL
    /// The lock file beside it.
    package let lockURL: URL

    /// The file of `app`'s state of this kind (`store`, `categories`) in `directory`.
    package init(directory: URL, app: String, kind: String) {
        let name = "\(Self.fileName(app: app)).\(kind).json"
        url = directory.appendingPathComponent(name, isDirectory: false)
        lockURL = directory.appendingPathComponent(name + ".lock", isDirectory: false)
    }

    /// A file name for an app: bundle identifiers (letters, digits, `.`, `-`) as they are;
    /// any other byte, and a leading `.`, as `%XX`; `_` for requests that name no app.
    package static func fileName(app: String) -> String {
        if app.isEmpty { return "_" }
        var out = ""
        for (index, byte) in app.utf8.enumerated() {
            let c = Character(Unicode.Scalar(byte))
            let plain = (c.isASCII && (c.isLetter || c.isNumber)) || c == "-" || (c == "." && index > 0)
            out += plain ? String(c) : String(format: "%%%02X", byte)
        }
        return out
    }

    /// The stamp of the file now, nil when there is none: a write makes a new file (a new
    /// inode), and its size and times come with it.
    package func signature() -> FileStamp? {
        ScriptFileSystem.stamp(at: url.path)
    }

    /// Runs `body` holding the exclusive lock; makes the folder when it is missing.
    package func withLock<T>(_ body: () throws -> T) throws -> T {
        let directory = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                throw StateFileError(message: "cannot make the state folder \(directory.path): \(Self.reason(error))")
            }
        }
        let fd = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateFileError(message: "cannot open \(lockURL.path): \(Self.errnoText())") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StateFileError(message: "cannot lock \(lockURL.path): \(Self.errnoText())") }
        }
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }

    /// The file's bytes and the signature they were read with; nil when there is no file.
    package func readBytes() throws(StateFileError) -> (Data, FileStamp?)? {
        let before = signature()
        guard before != nil else { return nil }
        do {
            let data = try Data(contentsOf: url)
            return (data, before)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw StateFileError(message: "cannot read \(url.path): \(Self.reason(error))")
        }
    }

    /// Replaces the file with `data` at once; returns the new file's signature.
    @discardableResult
    package func write(_ data: Data) throws(StateFileError) -> FileStamp? {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateFileError(message: "cannot write \(temporary.path): \(Self.errnoText())") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            try? handle.close()
            unlink(temporary.path)
            throw StateFileError(message: "cannot write \(url.path): \(Self.reason(error))")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let message = Self.errnoText()
            unlink(temporary.path)
            throw StateFileError(message: "cannot replace \(url.path): \(message)")
        }
        return signature()
    }

    /// Renames the file aside as `<name>.corrupt-<UTC timestamp>`; returns the new name.
    package func setAside() throws(StateFileError) -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var parts = tm()
        var seconds = time.tv_sec
        gmtime_r(&seconds, &parts)
        let stamp = String(
            format: "%04d%02d%02dT%02d%02d%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), time.tv_nsec / 1_000_000)
        var name = "\(url.lastPathComponent).corrupt-\(stamp)"
        var counter = 1
        while FileManager.default.fileExists(atPath: url.deletingLastPathComponent().appendingPathComponent(name).path) {
            counter += 1
            name = "\(url.lastPathComponent).corrupt-\(stamp)-\(counter)"
        }
        let target = url.deletingLastPathComponent().appendingPathComponent(name)
        guard rename(url.path, target.path) == 0 else {
            throw StateFileError(message: "cannot set aside \(url.path): \(Self.errnoText())")
        }
        return name
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}
