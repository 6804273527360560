import Foundation

/// Reads whole files through a file handle.
///
/// `Data(contentsOf:)` and `FileManager.contents(atPath:)` of the Foundation this builds with
/// on Linux leak a 4 KiB buffer for every empty file they read, and `watch` reads fixture files
/// again on every change, for as long as it runs.
enum FileBytes {
    /// The file's bytes.
    static func read(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }
}
