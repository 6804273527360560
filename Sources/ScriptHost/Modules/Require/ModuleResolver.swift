import Foundation

/// Where a module's source comes from.
public enum ModuleLocation: Sendable, Hashable {
    /// Shipped with PushScript, compiled into the binary.
    case bundled(name: String, source: String)
    /// A file; `chunkName` is what its errors are reported under (`lib/util.lua:3: ...`).
    case file(URL, chunkName: String)

    /// What errors in the module are reported under.
    public var chunkName: String {
        switch self {
        case .bundled(let name, _): return name.split(separator: ".").joined(separator: "/") + ".lua"
        case .file(_, let chunkName): return chunkName
        }
    }
}

/// Finds the module a `require` names: `pushscript.NAME` among the bundled modules; any other
/// name as `name.lua` (dots as folders) in the script's folder, then in each library folder.
public struct ModuleResolver: Sendable {
    /// The requiring script's folder, searched first.
    public var scriptDirectory: URL?
    /// The host's library folders (`--lib`), searched in order after it.
    public var libraryDirectories: [URL]

    /// The standard libraries `require` gives without a file, as stock Lua's `package.loaded`
    /// holds them: the ones the sandbox has whole.
    public static let standardLibraries: Set<String> = ["string", "table", "math", "coroutine", "utf8"]

    /// Stock Lua's other libraries, which `require` does not give (the sandbox cuts `os` down
    /// to its global and leaves the others out), each with what a script uses instead. No
    /// file is looked for under these names, as stock Lua's `package.loaded` holds them first.
    public static let withheldLibraries: [String: String] = [
        "os": "use the global os (os.time, os.clock, os.date, os.difftime)",
        "io": "scripts open no files (download() fetches one, store keeps values)",
        "debug": "scripts have no debug library (log.debug writes to the log)",
        "package": "require finds NAME.lua beside the script or in a --lib folder",
    ]

    /// A resolver for a script's folder and the host's library folders.
    public init(scriptDirectory: URL?, libraryDirectories: [URL]) {
        self.scriptDirectory = scriptDirectory
        self.libraryDirectories = libraryDirectories
    }

    /// The module `name` means, or an error that says where it was looked for.
    public func locate(_ name: ModuleName) throws(ModuleError) -> ModuleLocation {
        if let instead = Self.withheldLibraries[name.text] {
            throw ModuleError("module '\(name)' is not available in the sandbox: \(instead)")
        }
        if name.isBundled {
            if let source = BundledModules.source(of: name.text) { return .bundled(name: name.text, source: source) }
            let known = BundledModules.names.map { "'\($0)'" }.joined(separator: ", ")
            throw ModuleError("module '\(name)' not found: PushScript ships \(known)")
        }
        let relative = name.relativePath
        var searched: [String] = []
        for directory in [scriptDirectory].compactMap({ $0 }) + libraryDirectories {
            let url = directory.appendingPathComponent(relative, isDirectory: false)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return .file(url, chunkName: relative)
            }
            searched.append(url.path)
        }
        if searched.isEmpty {
            throw ModuleError("module '\(name)' not found: the script has no folder and the host no library folder (--lib DIR)")
        }
        throw ModuleError("module '\(name)' not found: no file \(searched.map { "'\($0)'" }.joined(separator: ", ")); put \(relative) beside the script or in a --lib folder")
    }
}
