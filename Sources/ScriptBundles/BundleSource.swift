import Foundation
import ScriptHost

/// The files a bundle is built from: a folder's script, the modules it requires, and the media
/// under its `media/` folder.
public struct BundleSource: Sendable {
    /// The files by path in the bundle, with their kinds.
    public private(set) var files: [String: (kind: BundleFileEntry.Kind, bytes: [UInt8])] = [:]

    /// No files.
    public init() {}

    /// A failure to gather the files, for a person.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do.
        public let message: String
        public var description: String { message }
    }

    /// The script of a folder: `DIR/<app>.lua`, else the one `.lua` file at its top.
    public static func scriptFile(in folder: URL, app: String) throws(Problem) -> URL {
        let named = folder.appendingPathComponent("\(app).lua", isDirectory: false)
        if FileManager.default.fileExists(atPath: named.path) { return named }
        let top = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".lua") && !$0.hasPrefix(".") }.sorted()
        guard top.count == 1 else {
            let found = top.isEmpty ? "no .lua file" : "\(top.count) .lua files (\(top.joined(separator: ", ")))"
            throw Problem(message: "\(folder.path) has no \(app).lua and \(found) at its top; name the script \(app).lua")
        }
        return folder.appendingPathComponent(top[0], isDirectory: false)
    }

    /// Adds a file read from disk under `path`.
    public mutating func add(_ url: URL, as path: String, kind: BundleFileEntry.Kind) throws(Problem) {
        if let problem = BundlePath.problem(path) { throw Problem(message: "\(url.path): \(problem); rename it") }
        let limit = kind == .media ? BundleManifest.maximumMediaFileSize : BundleManifest.maximumLuaFileSize
        guard let bytes = VersionLoader.read(url, limit: limit) else {
            throw Problem(message: "cannot read \(url.path), or it is larger than \(limit >> 20) MiB (the most a \(kind.rawValue) file holds)")
        }
        files[path] = (kind, bytes)
    }

    /// Adds every regular file under `folder/media` (hidden ones left out) as media.
    public mutating func addMedia(under folder: URL) throws(Problem) {
        let media = folder.appendingPathComponent("media", isDirectory: true)
        guard let walker = FileManager.default.enumerator(at: media, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return }
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(media.standardizedFileURL.path.count + 1))
            try add(url, as: "media/" + relative, kind: .media)
        }
    }

    /// The path in the bundle of a file under `folder`; nil when it is not under it.
    public static func path(of file: URL, under folder: URL) -> String? {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
        let path = file.standardizedFileURL.resolvingSymlinksInPath().path
        guard path.hasPrefix(root + "/") else { return nil }
        return String(path.dropFirst(root.count + 1))
    }

    /// The manifest's entries for the files (sizes and SHA-256s are filled in when signed).
    public var entries: [BundleFileEntry] {
        files.map { BundleFileEntry(path: $0.key, kind: $0.value.kind, size: $0.value.bytes.count, sha256: "") }
    }

    /// The files' bytes by path.
    public var contents: [String: [UInt8]] { files.mapValues(\.bytes) }
}
