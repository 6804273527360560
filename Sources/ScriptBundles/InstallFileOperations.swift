import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation that failed, for a person.
package struct FileOperationError: Error, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// The file operations an install makes, one call per step, so that a test can stop an install
/// after any of them and look at what it left (as if the process had been killed there).
package protocol InstallFileOperations: Sendable {
    /// Makes a folder (its parent exists).
    func makeDirectory(_ url: URL) throws(FileOperationError)
    /// Writes a new file (that must not exist) and flushes it to the disk.
    func writeNew(_ bytes: [UInt8], to url: URL) throws(FileOperationError)
    /// Renames `from` to `to` at once, replacing a file `to` (not a folder).
    func move(_ from: URL, to: URL) throws(FileOperationError)
    /// Flushes a folder's entries to the disk.
    func syncDirectory(_ url: URL) throws(FileOperationError)
    /// Removes a file or a folder with everything in it.
    func remove(_ url: URL) throws(FileOperationError)
}

/// The real file operations.
package struct SystemFileOperations: InstallFileOperations {
    package init() {}

    package func makeDirectory(_ url: URL) throws(FileOperationError) {
        guard mkdir(url.path, 0o755) == 0 || errno == EEXIST else { throw Self.failure("make the folder", url) }
    }

    package func writeNew(_ bytes: [UInt8], to url: URL) throws(FileOperationError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.failure("create", url) }
        defer { close(fd) }
        guard writeAll(fd, bytes) else { throw Self.failure("write", url) }
        guard fsync(fd) == 0 else { throw Self.failure("flush", url) }
    }

    package func move(_ from: URL, to: URL) throws(FileOperationError) {
        guard rename(from.path, to.path) == 0 else { throw Self.failure("rename \(from.lastPathComponent) to", to) }
    }

    package func syncDirectory(_ url: URL) throws(FileOperationError) {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.failure("open the folder", url) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Self.failure("flush the folder", url) }
    }

    package func remove(_ url: URL) throws(FileOperationError) {
        do { try FileManager.default.removeItem(at: url) } catch {
            if (error as NSError).code == NSFileNoSuchFileError { return }
            throw FileOperationError("cannot remove \(url.path): \(error.localizedDescription)")
        }
    }

    private static func failure(_ what: String, _ url: URL) -> FileOperationError {
        FileOperationError("cannot \(what) \(url.path): \(String(cString: strerror(errno)).lowercased())")
    }
}
