import Foundation

/// The folders options name (`--lib`, `--media-dir`, `--scripts`, `--state`, `--attachments`),
/// checked with one wording.
enum FolderArgument {
    /// `path`, which must be a folder already; else a usage error that says what to `give`.
    static func existing(_ path: String, _ option: Option, command: String, give: String) throws(UsageError) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("pushscript \(command): \(option.name) \(path) is not a folder; give \(give)")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// `path`, made (with its parents) when it does not exist yet.
    static func made(_ path: String, _ option: Option, command: String) throws(UsageError) -> URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw UsageError("pushscript \(command): \(option.name) \(path) is a file; give a folder")
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw UsageError("pushscript \(command): \(option.name) \(path) cannot be made; give a folder you can write")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
