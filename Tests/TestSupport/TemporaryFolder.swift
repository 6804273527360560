import Foundation

/// A fresh folder in the temporary directory for one test's files, removed with everything in
/// it when the last reference to it goes (or at ``remove()``).
public final class TemporaryFolder {
    /// The folder.
    public let url: URL

    /// Makes a folder named `prefix-UUID`.
    public init(_ prefix: String = "pushscript-test") throws {
        url = try Self.make(prefix)
    }

    deinit { remove() }

    /// Makes a folder named `prefix-UUID` that the caller removes.
    public static func make(_ prefix: String = "pushscript-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `name` (a relative path; folders made as needed); returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    /// Writes `data` to `name` (a relative path; folders made as needed); returns its path.
    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let file = file(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file.path
    }

    /// The URL of `name` in the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { file(name).path }

    /// Removes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
