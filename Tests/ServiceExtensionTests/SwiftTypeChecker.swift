import Foundation
import TestSupport

/// Runs `swiftc -typecheck` on Swift the package does not build on Linux (the extension
/// adapter, the CryptoKit implementation, the docs' Swift) against the package's built modules
/// and the stand-ins of Apple's frameworks in `StandIns/`, which it builds first.
struct SwiftTypeChecker: Sendable {
    /// The repository.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Where SwiftPM put the test runner, and the package's modules beside it.
    static let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    /// The compiler on the `PATH`.
    let swiftc: URL
    /// The folder the stand-in modules were written to.
    let standIns: URL

    /// The checker, its stand-ins built once for all tests.
    static func shared() async throws -> SwiftTypeChecker { try await built.value }

    private static let built = Task { try await make() }

    private static func make() async throws -> SwiftTypeChecker {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard let swiftc = path.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw CheckFailure("no swiftc on the PATH (\(path))") }
        let standIns = try TemporaryFolder.make("pushscript-standins")
        let checker = SwiftTypeChecker(swiftc: swiftc, standIns: standIns)
        for module in ["UserNotifications", "CoreGraphics", "CryptoKit"] {
            try await checker.emitStandIn(module)
        }
        // The adapter as a module, for the docs' `import ServiceExtension` (SwiftPM's build of
        // it on Linux is empty); found before SwiftPM's, the stand-ins coming first.
        let adapter = Self.root.appendingPathComponent("Sources/ServiceExtension")
        let files = try FileManager.default.contentsOfDirectory(atPath: adapter.path).filter { $0.hasSuffix(".swift") }.sorted()
        let out = try await checker.run(
            ["-emit-module", "-parse-as-library", "-module-name", "ServiceExtension", "-emit-module-path",
             standIns.appendingPathComponent("ServiceExtension.swiftmodule").path, "-I", standIns.path] + checker.packageFlags
                + files.map { adapter.appendingPathComponent($0).path } + (try checker.prelude([]).map { [$0.path] } ?? []))
        guard out.status == 0 else { throw CheckFailure("the adapter does not build as a module:\n\(out.stderr)") }
        return checker
    }

    /// Type-checks `files` as one module, warnings as errors, with the stand-ins and the
    /// package's modules on the search path; `imports` are imported into every file (as the
    /// module they are compiled into imports them: ScriptHost for a file of ScriptHost's).
    /// `script` allows top-level code (a file named `main.swift`).
    func typecheck(_ files: [URL], moduleName: String, imports: [String] = [], script: Bool = false) async throws -> CLIOutput {
        var sources = files
        if let prelude = try prelude(imports) { sources.append(prelude) }
        return try await run(
            ["-typecheck", "-module-name", moduleName, "-warnings-as-errors"] + (script ? [] : ["-parse-as-library"])
                + ["-I", standIns.path] + packageFlags + sources.map(\.path))
    }

    /// A file that imports `imports` into every file of the module it is compiled into; nil
    /// when there is nothing to import.
    private func prelude(_ imports: [String]) throws -> URL? {
        let implicit = imports
        guard !implicit.isEmpty else { return nil }
        let prelude = try TemporaryFolder.make("pushscript-prelude").appendingPathComponent("Prelude.swift")
        try Data(implicit.map { "@_exported import \($0)\n" }.joined().utf8).write(to: prelude)
        return prelude
    }

    /// Type-checks a package manifest against the toolchain's PackageDescription.
    func typecheckManifest(_ file: URL) async throws -> CLIOutput {
        let api = swiftc.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/pm/ManifestAPI")
        // The PackageDescription version the manifest's first line asks for, as SwiftPM reads it.
        let firstLine = (try String(contentsOf: file, encoding: .utf8)).split(separator: "\n").first ?? ""
        let version = firstLine.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "6.0"
        return try await run(["-typecheck", "-swift-version", "6", "-package-description-version", version, "-I", api.path, file.path])
    }

    /// The flags that find the package's modules: its Swift modules, and the module maps and
    /// headers of its C modules (system libraries and C targets), as SwiftPM passes them.
    var packageFlags: [String] {
        let fm = FileManager.default
        var flags = ["-swift-version", "6", "-I", Self.build.appendingPathComponent("Modules").path]
        let built = (try? fm.contentsOfDirectory(atPath: Self.build.path)) ?? []
        for name in built.sorted() where name.hasSuffix(".build") {
            let map = Self.build.appendingPathComponent(name).appendingPathComponent("module.modulemap")
            if fm.fileExists(atPath: map.path) { flags += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        }
        let sources = Self.root.appendingPathComponent("Sources")
        for name in ((try? fm.contentsOfDirectory(atPath: sources.path)) ?? []).sorted() {
            let folder = sources.appendingPathComponent(name)
            let map = folder.appendingPathComponent("module.modulemap")
            if fm.fileExists(atPath: map.path) { flags += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
            let include = folder.appendingPathComponent("include")
            if fm.fileExists(atPath: include.path) { flags += ["-Xcc", "-I", "-Xcc", include.path] }
        }
        return flags
    }

    /// Builds the stand-in module of `StandIns/folder`.
    private func emitStandIn(_ folder: String, moduleName: String? = nil) async throws {
        let directory = Self.root.appendingPathComponent("Tests/ServiceExtensionTests/StandIns").appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
        let name = moduleName ?? folder
        let out = try await run(
            ["-emit-module", "-parse-as-library", "-module-name", name, "-emit-module-path",
             standIns.appendingPathComponent("\(name).swiftmodule").path] + packageFlags + files.map { directory.appendingPathComponent($0).path })
        guard out.status == 0 else { throw CheckFailure("the stand-in \(name) does not build:\n\(out.stderr)") }
    }

    private func run(_ arguments: [String]) async throws -> CLIOutput {
        try await CLI.run(arguments, executable: swiftc)
    }
}

/// The checker could not be set up.
struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
