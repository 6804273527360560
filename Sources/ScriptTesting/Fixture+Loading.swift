import Foundation
import NotificationModel
import ScriptHost

extension Fixture {
    /// The keys a fixture may have.
    static let knownKeys: Set<String> = [
        "name", "script", "app", "payload", "locales", "categories", "keys", "media", "http", "allowPost", "limits", "expect",
        "allowHttp", "strings", "identifier", "expireMs",
    ]

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
            throw fail("\(error)")  // "not valid JSON: ..."
        }
        if object["aps"] != nil {
            throw fail(
                "this looks like a payload (it has 'aps'), not a fixture; run it with 'pushscript run SCRIPT \(file.lastPathComponent)' or name it as a fixture's \"payload\""
            )
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
        self.identifier = try string("identifier")
        if identifier?.isEmpty == true { throw fail("'identifier' must not be empty: give the request's apns-id, or leave it out for a new UUID") }

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

        var dataFiles: [URL] = []
        switch object["categories"] {
        case .none:
            categories = []
        case .string(let path):
            let url = resolve(path)
            dataFiles.append(url)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw fail("categories file \(url.path) cannot be read; fix 'categories'")
            }
            do { categories = try NotificationCategory.list(jsonData: data) } catch {
                throw fail("'categories' (\(path)): \(error)")
            }
        case let value?:
            do { categories = try NotificationCategory.list(json: value) } catch {
                throw fail("'categories': \(error); give a list of categories or a path to a JSON file of one")
            }
        }

        if let value = object["allowHttp"] {
            guard let hosts = value.arrayValue?.compactMap(\.stringValue), hosts.count == value.arrayValue?.count else {
                throw fail("'allowHttp' must be a list of host names, such as [\"cdn.example.com\"]")
            }
            allowHTTPHosts = Set(hosts)
        } else {
            allowHTTPHosts = []
        }

        switch object["strings"] {
        case .none:
            strings = nil
        case .string(let path):
            let url = resolve(path)
            dataFiles.append(url)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw fail("strings file \(url.path) cannot be read; fix 'strings'")
            }
            do { strings = try LocalizedAlert.stringsTable(json: JSONValue(jsonData: data)) } catch {
                throw fail("'strings' (\(path)): \(error); give a JSON object of strings")
            }
        case let value?:
            do { strings = try LocalizedAlert.stringsTable(json: value) } catch {
                throw fail("'strings': \(error); give an object of strings or a path to a JSON file of one")
            }
        }

        var keys: [String: [UInt8]] = [:]
        if let value = object["keys"] {
            guard case .object(let entries) = value else { throw fail("'keys' must be an object of base64 strings") }
            for (name, encoded) in entries {
                guard let text = encoded.stringValue else { throw fail("'keys.\(name)' must be a base64 string") }
                switch Base64.decode(text) {
                case .success(let bytes): keys[name] = bytes
                case .failure(let error): throw fail("'keys.\(name)' must be a base64 string: \(error.message)")
                }
            }
        }
        self.keys = keys

        self.dataFiles = dataFiles

        if let value = object["media"] {
            do { media = try MediaMap.answers(value, relativeTo: folder) } catch {
                throw fail("'media' \(error.message)")
            }
        } else {
            media = [:]
        }

        if let value = object["http"] {
            do { http = try HTTPMap.answers(value) } catch { throw fail("'http' \(error.message)") }
        } else {
            http = [:]
        }
        if let value = object["allowPost"] {
            guard case .array(let hosts) = value, hosts.allSatisfy({ $0.stringValue != nil }) else {
                throw fail("'allowPost' must be a list of host names")
            }
            self.allowPost = Set(hosts.compactMap(\.stringValue))
        } else {
            self.allowPost = []
        }

        if let value = object["limits"] {
            guard case .object(let l) = value else { throw fail("'limits' must be an object") }
            var limits = ScriptLimits.default
            for (key, number) in l {
                guard let setting = LimitSetting(rawValue: key) else {
                    throw fail("unknown limit '\(key)'; limits are cpuMs, memoryMB, timeMs")
                }
                guard let n = number.integerValue, limits.set(setting, to: n) else {
                    throw fail("'limits.\(key)' must be \(setting.range)")
                }
            }
            self.limits = limits
        } else {
            self.limits = nil
        }

        if let value = object["expireMs"] {
            guard let n = value.integerValue, let expiry = NotificationRequest.expiry(milliseconds: n) else {
                throw fail("'expireMs' must be \(NotificationRequest.expiryRange)")
            }
            self.expiry = expiry
        } else {
            self.expiry = nil
        }

        guard let expect = object["expect"] else { throw fail("'expect' is missing: say what the result must contain") }
        guard case .object = expect else { throw fail("'expect' must be an object") }
        self.expect = expect
    }
}
