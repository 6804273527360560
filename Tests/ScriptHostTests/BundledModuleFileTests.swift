import Foundation
import Testing
@testable import ScriptHost

/// The bundled modules' `.lua` files (Sources/ScriptHost/BundledModules): plain Lua that
/// `luac5.4 -p` accepts, embedded in the binary byte for byte.
@Suite struct BundledModuleFileTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ScriptHost/BundledModules")

    /// Each bundled module's file: `pushscript.providers` → `providers.lua`.
    static func file(of name: String) -> URL {
        folder.appendingPathComponent(String(name.dropFirst("pushscript.".count)) + ".lua")
    }

    /// `luac5.4`, from Debian's lua5.4 package (scripts/setup installs it).
    static let luac = ["/usr/bin/luac5.4", "/usr/local/bin/luac5.4"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func everyBundledModuleIsItsFileEmbedded() throws {
        #expect(BundledModules.names == ["pushscript.providers"])
        for name in BundledModules.names {
            let text = try String(contentsOf: Self.file(of: name), encoding: .utf8)
            #expect(BundledModules.source(of: name) == text, "\(name) is not its .lua file as embedded")
        }
    }

    @Test func luacAcceptsEveryBundledModule() throws {
        let luac = try #require(Self.luac, "luac5.4 is not installed; run scripts/setup (it installs Debian's lua5.4)")
        for name in BundledModules.names {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: luac)
            process.arguments = ["-p", Self.file(of: name).path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "luac5.4 -p \(name): \(message)")
        }
    }

    @Test func luacRefusesWhatIsNotLua() throws {
        // the check above can fail: luac5.4 -p refuses a broken chunk
        let luac = try #require(Self.luac, "luac5.4 is not installed; run scripts/setup (it installs Debian's lua5.4)")
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).lua")
        try Data("local x = = 1\n".utf8).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: luac)
        process.arguments = ["-p", broken.path]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
    }
}
