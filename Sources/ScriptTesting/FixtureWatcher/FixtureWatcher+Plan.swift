import Foundation
import ScriptHost

/// What the watch loop knows of the fixtures under its paths at one moment: the folders to
/// run, the files each fixture depends on, and the directories to watch.
struct WatchPlan: Sendable {
    /// The fixture folders, as ``FixtureDiscovery`` finds them.
    var folders: [FixtureFolder] = []
    /// Fixture file path → the paths whose change reruns it: the fixture file, its script, the
    /// modules the script requires (beside it), its payload file, the files its media answers
    /// name, and its categories and strings files.
    var dependencies: [String: Set<String>] = [:]
    /// The directories to watch: every folder under the paths but hidden ones (new fixture
    /// files and folders appear there) and the folders of every dependency.
    var directories: Set<String> = []

    /// Every fixture file path.
    var fixtures: Set<String> { Set(dependencies.keys) }

    /// Finds the fixtures under `paths` now. Paths that do not exist (any more) are skipped.
    static func discover(_ paths: [String]) -> WatchPlan {
        var plan = WatchPlan()
        let fm = FileManager.default
        var existing: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            existing.append(path)
            let url = URL(fileURLWithPath: path).standardizedFileURL
            if isDirectory.boolValue {
                plan.directories.insert(url.path)
                let enumerator = fm.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
                while let item = enumerator?.nextObject() as? URL {
                    if (try? item.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
                        plan.directories.insert(item.standardizedFileURL.path)
                    }
                }
            } else {
                plan.directories.insert(url.deletingLastPathComponent().path)
            }
        }
        plan.folders = (try? FixtureDiscovery.folders(under: existing)) ?? []
        for folder in plan.folders {
            for file in folder.files {
                let dependencies = Self.dependencies(of: file)
                plan.dependencies[file.path] = dependencies
                for path in dependencies {
                    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                    var isDirectory: ObjCBool = false
                    if fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue {
                        plan.directories.insert(directory)
                    }
                }
            }
        }
        return plan
    }

    /// The paths a fixture file depends on; only itself when it cannot be read.
    static func dependencies(of file: URL) -> Set<String> {
        var paths: Set<String> = [file.path]
        guard let fixture = try? Fixture(contentsOf: file) else { return paths }
        paths.insert(fixture.script.standardizedFileURL.path)
        if let script = try? Script(contentsOf: fixture.script) {
            for module in RequireScanner.follow(script, libraries: []).files { paths.insert(module.standardizedFileURL.path) }
        }
        if case .file(let payload) = fixture.payload { paths.insert(payload.standardizedFileURL.path) }
        for answer in fixture.media.values {
            if let media = answer.file { paths.insert(media.standardizedFileURL.path) }
        }
        for file in fixture.dataFiles { paths.insert(file.standardizedFileURL.path) }
        return paths
    }

    /// The fixtures a change touches: those that depend on a changed path, and those that
    /// are new since `earlier`. All of them when events were lost.
    func affected(by changes: FileChanges, since earlier: WatchPlan) -> Set<String> {
        if changes.overflowed { return fixtures }
        return Set(dependencies.filter { file, paths in
            earlier.dependencies[file] == nil || !paths.isDisjoint(with: changes.paths)
        }.keys)
    }

    /// The folders that hold any of `files`, with all their fixtures: a folder runs as one
    /// host, so what an earlier fixture registers or stores is there for the later ones.
    func folders(holding files: Set<String>) -> [FixtureFolder] {
        folders.filter { folder in folder.files.contains { files.contains($0.path) } }
    }
}
