import Foundation
import NotificationModel
import ScriptHost

extension Fixture {
    /// The keys a fixture may have.
    static let knownKeys: Set<String> = ["name", "script", "app", "payload", "locales", "categories", "keys", "media", "limits", "expect"]

    /// Reads a fixture file; a malformed one throws a ``FixtureError`` saying what is wrong.
    public init(contentsOf file: URL) throws(FixtureError) {
        func fail(_ problem: String) -> FixtureError { FixtureError(path: file.path, problem: problem) }
        let data: Data
        do { data = try FileBytes.read(file) } catch { throw fail("cannot read the file") }
        let object: [String: JSONValue]
        do {
            guard case .object(let o) = try JSONValue(jsonData: data) else { throw fail("a fixture must be a JSON object") }
            object = o
        } catch let error as FixtureError {
            throw error
        } catch {
            throw fail("not valid JSON: \(error)")
        }
        if let unknown = object.keys.filter({ !Self.knownKeys.contains($0) }).sorted().first {
            throw fail("unknown key '\(unknown)'; a fixture has \(Self.knownKeys.sorted().joined(separator: ", "))")
        }
        let folder = file.deletingLastPathComponent()
        /// `script`, `payload` and `media` paths are relative to the fixture file.
        func resolve(_ path: String) -> URL { URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL }
        func string(_ key: String) throws(FixtureError) -> String? {
            guard let value = object[key] else { return nil }
            guard let s = value.stringValue else { throw fail("'\(key)' must be a string") }
            return s
        }

        self.file = file
        self.name = try string("name") ?? file.lastPathComponent
        guard let scriptPath = try string("script") else { throw fail("'script' is missing: name the Lua file to run") }
        self.script = resolve(scriptPath)
        self.app = try string("app")

        switch object["payload"] {
        case .none: throw fail("'payload' is missing: give an object or a path to a .json or .apns file")
        case .object(let o): payload = .inline(.object(o))
        case .string(let path): payload = .file(resolve(path))
        default: throw fail("'payload' must be an object or a path to a .json or .apns file")
        }

        if let value = object["locales"] {
            guard let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count else {
                throw fail("'locales' must be a list of strings")
            }
            locales = list
        } else {
            locales = nil
        }

        if let value = object["categories"] {
            do { categories = try NotificationCategory.list(json: value) } catch {
                throw fail("'categories': \(error)")
            }
        } else {
            categories = []
        }

        var keys: [String: [UInt8]] = [:]
        if let value = object["keys"] {
            guard case .object(let entries) = value else { throw fail("'keys' must be an object of base64 strings") }
            for (name, encoded) in entries {
                guard let text = encoded.stringValue, let data = Data(base64Encoded: text) else {
                    throw fail("'keys.\(name)' must be a base64 string")
                }
                keys[name] = [UInt8](data)
            }
        }
        self.keys = keys

        var media: [String: MediaAnswer] = [:]
        if let value = object["media"] {
            guard case .object(let entries) = value else { throw fail("'media' must be an object of URL: answer") }
            for (url, answer) in entries {
                media[url] = try Self.mediaAnswer(answer, url: url, resolve: resolve, fail: fail)
            }
        }
        self.media = media

        if let value = object["limits"] {
            guard case .object(let l) = value else { throw fail("'limits' must be an object") }
            var limits = ScriptLimits.default
            for (key, number) in l {
                guard let n = number.integerValue, n > 0 else { throw fail("'limits.\(key)' must be a positive integer") }
                switch key {
                case "cpuMs": limits.cpuTime = .milliseconds(n)
                case "memoryMB": limits.memoryBytes = Int(n) << 20
                case "timeMs": limits.time = .milliseconds(n)
                default: throw fail("unknown limit '\(key)'; limits are cpuMs, memoryMB, timeMs")
                }
            }
            self.limits = limits
        } else {
            self.limits = nil
        }

        guard let expect = object["expect"] else { throw fail("'expect' is missing: say what the result must contain") }
        guard case .object = expect else { throw fail("'expect' must be an object") }
        self.expect = expect
    }

    private static func mediaAnswer(
        _ answer: JSONValue, url: String, resolve: (String) -> URL, fail: (String) -> FixtureError
    ) throws(FixtureError) -> MediaAnswer {
        switch answer {
        case .string(let path):
            return MediaAnswer(file: resolve(path))
        case .object(let o):
            func problem(_ text: String) -> FixtureError { fail("'media' entry for \(url): \(text)") }
            if let unknown = o.keys.sorted().first(where: { !["file", "status", "contentType", "delayMs"].contains($0) }) {
                throw problem("unknown key '\(unknown)'; an entry has file, status, contentType, delayMs")
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
            if file == nil, status == 200 { throw problem("give a 'file' or a 'status'") }
            return MediaAnswer(file: file, status: status, contentType: contentType, delayMs: delay)
        default:
            throw fail("'media' entry for \(url) must be a file path or {file, status, contentType, delayMs}")
        }
    }
}
