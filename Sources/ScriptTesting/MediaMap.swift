import FixtureTransports
import Foundation
import NotificationModel
import ScriptHost

/// Media answers in the shape of a fixture's `media` (SPEC section 4), as a fixture or a
/// `--media-map FILE.json` gives them: `{URL: "file"}` or `{URL: {file, status, contentType,
/// delayMs, sizeBytes}}`, file paths relative to `folder`.
public enum MediaMap {
    /// Why a media map is refused: a one-line message naming the entry.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong, e.g. `entry for https://x/a.jpg: 'status' must be an HTTP status code such as 404`.
        public let message: String
        public var description: String { message }
    }

    /// The answers of a media map.
    public static func answers(_ value: JSONValue, relativeTo folder: URL) throws(Problem) -> [String: FixtureMedia] {
        guard case .object(let entries) = value else { throw Problem(message: "must be an object of URL: answer") }
        var media: [String: FixtureMedia] = [:]
        for (url, answer) in entries {
            media[url] = try self.answer(answer, url: url, folder: folder)
        }
        return media
    }

    /// Reads a media map file (`--media-map`): its paths are relative to its own folder, and
    /// each file it names must be readable.
    public static func answers(contentsOf file: URL) throws(Problem) -> [String: FixtureMedia] {
        guard let data = FileManager.default.contents(atPath: file.path) else { throw Problem(message: "cannot read the file") }
        let value: JSONValue
        do { value = try JSONValue(jsonData: data) } catch { throw Problem(message: error.message) }
        let media = try answers(value, relativeTo: file.deletingLastPathComponent())
        for (url, answer) in media.sorted(by: { $0.key < $1.key }) {
            if let path = answer.file?.path, !FileManager.default.isReadableFile(atPath: path) {
                throw Problem(message: "entry for \(url): cannot read \(path)")
            }
        }
        return media
    }

    private static func answer(_ answer: JSONValue, url: String, folder: URL) throws(Problem) -> FixtureMedia {
        func resolve(_ path: String) -> URL { URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL }
        switch answer {
        case .string(let path):
            return FixtureMedia(file: resolve(path))
        case .object(let o):
            func problem(_ text: String) -> Problem { Problem(message: "entry for \(url): \(text)") }
            if let unknown = o.keys.sorted().first(where: { !["file", "status", "contentType", "delayMs", "sizeBytes"].contains($0) }) {
                throw problem("unknown key '\(unknown)'; an entry has file, status, contentType, delayMs, sizeBytes")
            }
            var file: URL?
            if let path = o["file"] {
                guard let p = path.stringValue else { throw problem("'file' must be a path") }
                file = resolve(p)
            }
            var status = 200
            if let value = o["status"] {
                guard let n = value.integerValue, (100...599).contains(n) else { throw problem("'status' must be an HTTP status code such as 404") }
                status = Int(n)
            }
            var delay = 0
            if let value = o["delayMs"] {
                guard let n = value.integerValue, n >= 0 else { throw problem("'delayMs' must be a whole number of milliseconds") }
                delay = Int(n)
            }
            var contentType: String?
            if let value = o["contentType"] {
                guard let text = value.stringValue else { throw problem("'contentType' must be a string such as \"image/jpeg\"") }
                contentType = text
            }
            var sizeBytes: Int?
            if let value = o["sizeBytes"] {
                guard let n = value.integerValue, n > 0, n <= 1 << 30 else {
                    throw problem("'sizeBytes' must be a whole number of bytes from 1 to 1073741824, such as 11000000")
                }
                guard file != nil else { throw problem("'sizeBytes' pads a 'file'; give the file too") }
                sizeBytes = Int(n)
            }
            if file == nil, status == 200 { throw problem("give a 'file' or a 'status'") }
            return FixtureMedia(file: file, status: status, contentType: contentType, delayMs: delay, sizeBytes: sizeBytes)
        default:
            throw Problem(message: "entry for \(url) must be a file path or {file, status, contentType, delayMs, sizeBytes}")
        }
    }
}
