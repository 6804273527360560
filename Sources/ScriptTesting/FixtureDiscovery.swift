import Foundation

/// The fixtures of one folder: they run in file-name order through one host.
public struct FixtureFolder: Sendable {
    /// The folder.
    public let directory: URL
    /// Its fixture files, in name order.
    public let files: [URL]
}

/// Finds `*.fixture.json` files under paths.
public enum FixtureDiscovery {
    /// The suffix fixture files have.
    public static let suffix = ".fixture.json"

    /// The fixture files under `paths` (folders searched recursively; files taken as given),
    /// grouped by folder, folders in path order. Throws for a path that does not exist.
    public static func folders(under paths: [String]) throws(FixtureError) -> [FixtureFolder] {
        var byFolder: [URL: Set<URL>] = [:]
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw FixtureError(path: path, problem: "no such file or folder; check the path")
            }
            let url = URL(fileURLWithPath: path).standardizedFileURL
            if isDirectory.boolValue {
                let enumerator = fm.enumerator(at: url, includingPropertiesForKeys: nil)
                while let file = enumerator?.nextObject() as? URL {
                    guard file.lastPathComponent.hasSuffix(suffix) else { continue }
                    let file = file.standardizedFileURL
                    byFolder[file.deletingLastPathComponent(), default: []].insert(file)
                }
            } else {
                byFolder[url.deletingLastPathComponent(), default: []].insert(url)
            }
        }
        return byFolder.keys.sorted { $0.path < $1.path }.map { folder in
            FixtureFolder(directory: folder, files: byFolder[folder]!.sorted { $0.lastPathComponent < $1.lastPathComponent })
        }
    }
}
