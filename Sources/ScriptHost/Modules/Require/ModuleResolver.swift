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

    /// A resolver for a script's folder and the host's library folders.
    public init(scriptDirectory: URL?, libraryDirectories: [URL]) {
        self.scriptDirectory = scriptDirectory
        self.libraryDirectories = libraryDirectories
    }

    /// The module `name` means, or an error that says where it was looked for.
    public func locate(_ name: ModuleName) throws(ModuleError) -> ModuleLocation {
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
