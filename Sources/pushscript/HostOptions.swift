import Foundation
import NotificationModel
import ScriptHost
import ScriptTesting

/// The options `run`, `preview`, `bench` and `serve` share (SPEC section 5).
enum HostOptions {
    static let specs: [OptionSpec] = [
        .value("--app"), .value("--locale"), .value("--categories"), .value("--key", repeatable: true),
        .value("--media", repeatable: true), .value("--allow-http", repeatable: true), .value("--allow-post", repeatable: true), .value("--strings"),
        .value("--cpu-ms"), .value("--memory-mb"), .value("--time-ms"), .value("--state"), .value("--lib", repeatable: true),
    ] + mediaSpecs

    /// The options' lines for `--help`; `app` says what `--app` names.
    static func help(app: String = "the app's bundle identifier (wins over an .apns file's)") -> String { """
      --app ID              \(app)
      --locale L[,L...]     the device's preferred languages, most preferred first
      --categories FILE     categories the app declares (a JSON list as in fixtures)
      --key NAME=BASE64     a key for keys.get (repeatable)
      --media URL=FILE      answer downloads of URL from FILE (repeatable; the URL is all
                            before the last '=' that is followed by a readable file)
      --media-map FILE.json answers as a fixture's "media" object, paths relative to FILE
      --offline             no network: a URL no media answer covers fails with 'network'
      --media-dir DIR       the media directory: files content:attach{path=...} may attach
      --allow-http HOST     allow plain http for HOST (repeatable)
      --allow-post HOST     allow http.post to https://HOST (repeatable; none by default)
      --strings FILE        localized strings (a JSON object) for loc-key alerts
      --cpu-ms N            CPU budget of didReceive in ms (default 200)
      --memory-mb N         memory limit of the Lua state in MiB (default 8)
      --time-ms N           deadline of the whole request in ms (default 25000)
      --state DIR           keep the store and registered categories in DIR
      --lib DIR             look for require'd modules in DIR after the script's folder (repeatable)
    """ }

    /// The host configuration the options describe.
    static func configuration(_ a: ParsedArguments, command: String) throws(UsageError) -> HostConfiguration {
        var configuration = HostConfiguration()
        var limits = ScriptLimits.default
        for (option, setting) in [("--cpu-ms", LimitSetting.cpuMs), ("--memory-mb", .memoryMB), ("--time-ms", .timeMs)] {
            guard let v = a.value(option) else { continue }
            guard let n = Int64(v), limits.set(setting, to: n) else {
                throw UsageError("pushscript \(command): \(option) takes \(setting.range), not '\(v)'")
            }
        }
        configuration.limits = limits
        if let v = a.value("--locale") {
            configuration.locales = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let path = a.value("--categories") {
            let data = try read(path, "--categories", command)
            do { configuration.categories = try NotificationCategory.list(jsonData: data) } catch {
                throw UsageError("pushscript \(command): --categories \(path): \(error); give a JSON list of categories")
            }
        }
        if let path = a.value("--strings") {
            let data = try read(path, "--strings", command)
            do { configuration.strings = try LocalizedAlert.stringsTable(json: JSONValue(jsonData: data)) } catch {
                throw UsageError("pushscript \(command): --strings \(path): \(error); give a JSON object of strings")
            }
        }
        for entry in a.all("--key") {
            let (name, value) = try split(entry, "--key", "NAME=BASE64", command)
            switch Base64.decode(value) {
            case .success(let bytes): configuration.keys[name] = bytes
            case .failure(let error):
                throw UsageError("pushscript \(command): --key \(name): the value is not base64 (\(error.message)); give NAME=BASE64")
            }
        }
        try applyMediaOptions(a, command: command, to: &configuration)
        configuration.allowHTTPHosts = Set(a.all("--allow-http"))
        configuration.allowPostHosts = Set(a.all("--allow-post"))
        configuration.libraryDirectories = try libraryDirectories(a, command: command)
        if let dir = a.value("--state") {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw UsageError("pushscript \(command): --state \(dir) is a file; give a folder")
            }
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw UsageError("pushscript \(command): --state \(dir) cannot be made; give a folder you can write")
            }
            configuration.stateDirectory = URL(fileURLWithPath: dir, isDirectory: true)
        }
        return configuration
    }

    /// The `--lib` folders, each checked to be a folder.
    static func libraryDirectories(_ a: ParsedArguments, command: String) throws(UsageError) -> [URL] {
        var directories: [URL] = []
        for dir in a.all("--lib") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError("pushscript \(command): --lib \(dir) is not a folder; give a folder of .lua modules")
            }
            directories.append(URL(fileURLWithPath: dir, isDirectory: true))
        }
        return directories
    }

    static func positive(_ text: String, _ option: String, _ command: String) throws(UsageError) -> Int {
        guard let n = Int(text), n > 0 else {
            throw UsageError("pushscript \(command): \(option) takes a positive whole number, not '\(text)'")
        }
        return n
    }

    static func read(_ path: String, _ option: String, _ command: String) throws(UsageError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("pushscript \(command): \(option): cannot read \(path); check the path")
        }
        return data
    }

    static func split(_ entry: String, _ option: String, _ shape: String, _ command: String) throws(UsageError) -> (String, String) {
        guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex else {
            throw UsageError("pushscript \(command): \(option) takes \(shape), not '\(entry)'")
        }
        return (String(entry[..<eq]), String(entry[entry.index(after: eq)...]))
    }
}

/// `--media`, `--media-map`, `--offline` and `--media-dir`.
extension HostOptions {
    static let mediaSpecs: [OptionSpec] = [.value("--media-map", repeatable: true), .flag("--offline"), .value("--media-dir")]

    /// Adds the media answers (`--media-map` files first, then `--media`, a later answer for a
    /// URL replacing an earlier one), the offline switch and the media directory.
    static func applyMediaOptions(_ a: ParsedArguments, command: String, to configuration: inout HostConfiguration) throws(UsageError) {
        for path in a.all("--media-map") {
            do { configuration.media.merge(try MediaMap.answers(contentsOf: URL(fileURLWithPath: path))) { $1 } } catch {
                throw UsageError("pushscript \(command): --media-map \(path): \(error.message); give a JSON object as a fixture's \"media\"")
            }
        }
        for entry in a.all("--media") {
            let (url, path) = try splitMedia(entry, command)
            configuration.media[url] = MediaAnswer(file: URL(fileURLWithPath: path))
        }
        configuration.offline = a.flag("--offline")
        if let dir = a.value("--media-dir") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError("pushscript \(command): --media-dir \(dir) is not a folder; give the folder of the app's media files")
            }
            configuration.mediaDirectory = URL(fileURLWithPath: dir, isDirectory: true).standardizedFileURL
        }
    }

    /// `URL=FILE` split at the last `=` that a readable file follows, so that URLs with
    /// query strings (`…/a.jpg?w=2=a.jpg`) keep their own `=`.
    static func splitMedia(_ entry: String, _ command: String) throws(UsageError) -> (String, String) {
        let splits = entry.indices.filter { entry[$0] == "=" && $0 != entry.startIndex }.reversed()
        guard let last = splits.first else {
            throw UsageError("pushscript \(command): --media takes URL=FILE, not '\(entry)'")
        }
        for eq in splits {
            let path = String(entry[entry.index(after: eq)...])
            if FileManager.default.isReadableFile(atPath: path) { return (String(entry[..<eq]), path) }
        }
        let url = String(entry[..<last]), path = String(entry[entry.index(after: last)...])
        throw UsageError("pushscript \(command): --media \(url): cannot read \(path); give URL=FILE with a readable file")
    }
}

/// What `run`, `preview` and `bench` deliver: `SCRIPT PAYLOAD` and the host options.
struct DeliveryInput {
    let script: Script
    let request: NotificationRequest
    let configuration: HostConfiguration

    /// Reads the two positionals and the options; a usage error names what is wrong.
    init(_ a: ParsedArguments, command: String) throws(UsageError) {
        guard a.positionals.count == 2 else {
            throw UsageError("pushscript \(command): expected SCRIPT and PAYLOAD, got \(a.positionals.count) argument\(a.positionals.count == 1 ? "" : "s"); run 'pushscript \(command) --help'")
        }
        script = try readScript(a.positionals[0], command: command)
        request = NotificationRequest(payload: try readPayload(a.positionals[1], command: command), app: a.value("--app"))
        configuration = try HostOptions.configuration(a, command: command)
    }
}

/// Reads a payload file (`.json`, or `.apns` by its extension).
func readPayload(_ path: String, command: String) throws(UsageError) -> Payload {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw UsageError("pushscript \(command): cannot read payload \(path); check the path")
    }
    do {
        return try PayloadFile.payload(data, path: path)
    } catch {
        if path.hasSuffix(".lua") {
            throw UsageError("pushscript \(command): \(path) is a script, not a payload; give the script first: pushscript \(command) SCRIPT PAYLOAD")
        }
        throw UsageError("pushscript \(command): \(path) is not a valid payload: \(error.message)")
    }
}

/// Reads a script file.
func readScript(_ path: String, command: String) throws(UsageError) -> Script {
    do { return try Script(contentsOf: URL(fileURLWithPath: path)) } catch {
        throw UsageError("pushscript \(command): \(error.message); check the path")
    }
}
