import Foundation
import NotificationModel
import ScriptHost
import ScriptTesting

/// The options `run`, `preview`, `bench` and `serve` share (SPEC section 5).
enum HostOptions {
    static let app = Option("--app", "ID", help: "the app's bundle identifier (wins over an .apns file's)")
    static let locale = Option("--locale", "L[,L...]", help: "the device's preferred languages, most preferred first")
    static let categories = Option("--categories", "FILE", help: "categories the app declares (a JSON list as in fixtures)")
    static let key = Option("--key", "NAME=BASE64", repeatable: true, help: "a key for keys.get (repeatable)")
    static let media = Option(
        "--media", "URL=FILE", repeatable: true,
        help: "answer downloads of URL from FILE (repeatable; the URL is all",
        "before the last '=' that is followed by a readable file)")
    static let mediaMap = Option("--media-map", "FILE.json", repeatable: true, help: "answers as a fixture's \"media\" object, paths relative to FILE")
    static let offline = Option.flag("--offline", help: "no network: a URL no media answer covers fails with 'network'")
    static let mediaDir = Option("--media-dir", "DIR", help: "the media directory: files content:attach{path=...} may attach")
    static let allowHTTP = Option("--allow-http", "HOST", repeatable: true, help: "allow plain http for HOST (repeatable)")
    static let allowPost = Option("--allow-post", "HOST", repeatable: true, help: "allow http.post to https://HOST (repeatable; none by default)")
    static let strings = Option("--strings", "FILE", help: "localized strings (a JSON object) for loc-key alerts")
    static let cpuMs = Option(
        "--cpu-ms", "N", default: "\(Int(ScriptLimits.default.cpuTime / .milliseconds(1)))", help: "CPU budget of didReceive in ms")
    static let memoryMB = Option("--memory-mb", "N", default: "\(ScriptLimits.default.memoryBytes >> 20)", help: "memory limit of the Lua state in MiB")
    static let timeMs = Option(
        "--time-ms", "N", default: "\(Int(ScriptLimits.default.time / .milliseconds(1)))", help: "deadline of the whole request in ms")
    static let expireMs = Option(
        "--expire-ms", "N",
        help: "the system's deadline in ms from each request's start, as iOS's",
        "serviceExtensionTimeWillExpire: the script is stopped and its",
        "best attempt delivered (--time-ms still applies; none by default)")
    static let state = Option("--state", "DIR", help: "keep the store and registered categories in DIR")
    static let trust = Option(
        "--trust", "KEY.pub", repeatable: true,
        help: "with --state: serve the bundle version installed in DIR",
        "when one signed by this key is in service (repeatable)")
    static let lib = Option("--lib", "DIR", repeatable: true, help: "look for require'd modules in DIR after the script's folder (repeatable)")

    /// The options in the order `--help` lists them; `app` says what `--app` names.
    static func options(app: String? = nil) -> [Option] {
        [
            app.map { Self.app.withHelp($0) } ?? Self.app, locale, categories, key, media, mediaMap, offline, mediaDir,
            allowHTTP, allowPost, strings, cpuMs, memoryMB, timeMs, expireMs, state, trust, lib,
        ]
    }

    /// The host configuration the options describe.
    static func configuration(_ a: ParsedArguments, command: String) throws(UsageError) -> HostConfiguration {
        var configuration = HostConfiguration()
        var limits = ScriptLimits.default
        for (option, setting) in [(cpuMs, LimitSetting.cpuMs), (memoryMB, .memoryMB), (timeMs, .timeMs)] {
            guard let v = a.value(option) else { continue }
            guard let n = Int64(v), limits.set(setting, to: n) else {
                throw UsageError("pushscript \(command): \(option.name) takes \(setting.range), not '\(v)'")
            }
        }
        configuration.limits = limits
        if let v = a.value(locale) {
            configuration.locales = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let path = a.value(categories) {
            let data = try read(path, categories.name, command)
            do { configuration.categories = try NotificationCategory.list(jsonData: data) } catch {
                throw UsageError("pushscript \(command): --categories \(path): \(error); give a JSON list of categories")
            }
        }
        if let path = a.value(strings) {
            let data = try read(path, strings.name, command)
            do { configuration.strings = try LocalizedAlert.stringsTable(json: JSONValue(jsonData: data)) } catch {
                throw UsageError("pushscript \(command): --strings \(path): \(error); give a JSON object of strings")
            }
        }
        for entry in a.all(key) {
            let (name, value) = try split(entry, "--key", "NAME=BASE64", command)
            switch Base64.decode(value) {
            case .success(let bytes): configuration.keys[name] = bytes
            case .failure(let error):
                throw UsageError("pushscript \(command): --key \(name): the value is not base64 (\(error.message)); give NAME=BASE64")
            }
        }
        try applyMediaOptions(a, command: command, to: &configuration)
        configuration.allowHTTPHosts = Set(a.all(allowHTTP))
        configuration.allowPostHosts = Set(a.all(allowPost))
        configuration.libraryDirectories = try libraryDirectories(a, command: command)
        if let dir = a.value(state) {
            configuration.stateDirectory = try FolderArgument.made(dir, state, command: command)
        }
        return configuration
    }

    /// `--expire-ms`: the system's deadline of each request, if given.
    static func expiry(_ a: ParsedArguments, command: String) throws(UsageError) -> Duration? {
        guard let v = a.value(expireMs) else { return nil }
        guard let n = Int64(v), let expiry = NotificationRequest.expiry(milliseconds: n) else {
            throw UsageError("pushscript \(command): \(expireMs.name) takes \(NotificationRequest.expiryRange), not '\(v)'")
        }
        return expiry
    }

    /// The `--lib` folders, each checked to be a folder.
    static func libraryDirectories(_ a: ParsedArguments, command: String) throws(UsageError) -> [URL] {
        var directories: [URL] = []
        for dir in a.all(lib) {
            directories.append(try FolderArgument.existing(dir, lib, command: command, give: "a folder of .lua modules"))
        }
        return directories
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
    /// The media answers: `--media-map` files first, then `--media`, a later answer for a URL
    /// replacing an earlier one. They go to the host beside its configuration.
    static func answers(_ a: ParsedArguments, command: String) throws(UsageError) -> FixtureAnswers {
        var answers = FixtureAnswers()
        for path in a.all(mediaMap) {
            do { answers.media.merge(try MediaMap.answers(contentsOf: URL(fileURLWithPath: path))) { $1 } } catch {
                throw UsageError("pushscript \(command): --media-map \(path): \(error.message); give a JSON object as a fixture's \"media\"")
            }
        }
        for entry in a.all(media) {
            let (url, path) = try splitMedia(entry, command)
            answers.answer(url, withFile: URL(fileURLWithPath: path))
        }
        return answers
    }

    /// Sets the offline switch and the media directory.
    static func applyMediaOptions(_ a: ParsedArguments, command: String, to configuration: inout HostConfiguration) throws(UsageError) {
        configuration.offline = a.flag(offline)
        if let dir = a.value(mediaDir) {
            configuration.mediaDirectory = try FolderArgument.existing(dir, mediaDir, command: command, give: "the folder of the app's media files")
                .standardizedFileURL
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
    /// The media answers and the request's post answers (`--media`, `--media-map`, `--http-map`).
    let answers: FixtureAnswers

    /// Reads the two positionals and the options; a usage error names what is wrong.
    init(_ a: ParsedArguments, command: String) throws(UsageError) {
        guard a.positionals.count == 2 else {
            throw UsageError("pushscript \(command): expected SCRIPT and PAYLOAD, got \(a.positionals.count) argument\(a.positionals.count == 1 ? "" : "s"); run 'pushscript \(command) --help'")
        }
        script = try readScript(a.positionals[0], command: command)
        var request = NotificationRequest(
            payload: try readPayload(a.positionals[1], command: command), app: a.value(HostOptions.app),
            expiry: try HostOptions.expiry(a, command: command))
        var answers = try HostOptions.answers(a, command: command)
        try RequestOptions.apply(a, command: command, to: &request, answers: &answers)
        self.request = request
        self.answers = answers
        configuration = try HostOptions.configuration(a, command: command)
    }

    /// A host of `configuration` that answers from ``answers`` ahead of the network.
    func host(_ configuration: HostConfiguration) -> ScriptHost {
        ScriptHost(configuration: configuration, answers: answers.requestAnswers)
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
