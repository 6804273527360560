import Foundation
import Testing

/// DESIGN rule 1 held by the compiler: Swift sees the engine's `pss.h` and the public headers it
/// includes, none of which includes `lua.h`, and no Swift target depends on `CLua`; so no Swift
/// code can call a Lua API that raises. (`RaisingAPITests` greps for such calls as well.)
@Suite struct LuaBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The folder of the built modules: the test runner's own.
    static let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    /// Type-checks `source` as a file that imports what LuaSandbox's code imports; the
    /// compiler's exit status and its output.
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-boundary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("probe.swift")
        try Data(source.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", file.path,
            "-I", build.appendingPathComponent("Modules").path,
            "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("CLuaSandbox.build/module.modulemap").path,
            "-Xcc", "-I" + root.appendingPathComponent("Sources/CLuaSandbox/include").path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func swiftCannotCallARaisingLuaAPI() throws {
        let imports = "import CLuaSandbox\nimport LuaSandbox\n"
        // The same imports compile with a call into the engine: the probe itself is sound.
        let shim = try Self.typecheck(imports + "func probe() -> Int64 { pss_monotonic_now_ns() }\n")
        #expect(shim.status == 0, "\(shim.output)")
        for (name, arguments) in [("lua_error", "(L)"), ("luaL_error", "(L, \"x\")"), ("lua_callk", "(L, 0, 0, 0, nil)")] {
            let raising = try Self.typecheck(imports + "func probe(_ L: OpaquePointer?) { _ = \(name)\(arguments) }\n")
            #expect(raising.status != 0, "\(name) compiled")
            #expect(raising.output.contains("cannot find '\(name)' in scope"), "\(raising.output)")
        }
    }

    @Test func onlyTheEngineDependsOnLua() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try Regex(#"\.(target|testTarget|executableTarget)\(\s*name:\s*"(\w+)",\s*dependencies:\s*\[([^\]]*)\]"#)
        var dependents: [String] = []
        var targets = 0
        for match in manifest.matches(of: target) {
            targets += 1
            let name = match.output[2].substring.map(String.init) ?? ""
            let dependencies = match.output[3].substring.map(String.init) ?? ""
            if dependencies.contains("\"CLua\"") { dependents.append(name) }
        }
        #expect(targets >= 8)
        // The C targets: the engine, and its test support (C, linked only into the tests).
        #expect(dependents.sorted() == ["CLuaSandbox", "CLuaSandboxTesting"])
    }

    @Test func theEnginesPublicHeadersDoNotIncludeLua() throws {
        let include = Self.root.appendingPathComponent("Sources/CLuaSandbox/include")
        let headers = try FileManager.default.contentsOfDirectory(atPath: include.path).filter { $0.hasSuffix(".h") }
        #expect(headers.sorted() == ["pss.h", "pss_buffer.h", "pss_clock.h", "pss_types.h"])
        for header in headers {
            let text = try String(contentsOf: include.appendingPathComponent(header), encoding: .utf8)
            #expect(!text.contains(try Regex(#"#\s*include\s*[<"](lua|lauxlib|lualib|luaconf)\.h"#)), "\(header) includes a Lua header")
        }
    }

    @Test func noSwiftFileImportsLua() throws {
        var offenders: [String] = []
        for directory in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(at: Self.root.appendingPathComponent(directory), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                if text.contains(try Regex(#"(?m)^\s*(@\w+\s+)*import\s+(\w+\s+)?CLua(\.|\s*$)"#)) { offenders.append(url.lastPathComponent) }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
