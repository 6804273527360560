import Foundation
import Testing
import TestSupport

/// The engine's shape, as `scripts/check-engine` reads it: each header declares only what the
/// `.c` of its name defines, and no two files include each other's headers in a circle.
@Suite struct EngineShapeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs scripts/check-engine on `folders` (relative to `root`); its exit status and output.
    static func check(root: URL, _ folders: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent("scripts/check-engine")
        process.arguments = folders
        process.currentDirectoryURL = root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func theEngineHasOneHeaderPerFileAndNoIncludeCircle() throws {
        let result = try Self.check(root: Self.root, [])
        #expect(result.output == "")
        #expect(result.status == 0)
    }

    /// The check finds what it is for: a header that declares a function its file does not
    /// define, a file that defines one its header does not declare, and two files that include
    /// each other's headers.
    @Test func theCheckFindsAStrayDeclarationAndACircle() throws {
        let folder = try TemporaryFolder()
        try folder.write("engine/a.h", "#include \"b.h\"\nint a_one(void);\nint b_two(void);\n")
        try folder.write("engine/a.c", "#include \"a.h\"\nint a_one(void) { return 1; }\nint a_three(void) { return 3; }\n")
        try folder.write("engine/b.h", "int b_two(void);\n")
        try folder.write("engine/b.c", "#include \"a.h\"\n#include \"b.h\"\nint b_two(void) { return a_one() + 1; }\n")
        let result = try Self.check(root: folder.url, ["engine"])
        #expect(result.status == 1)
        #expect(result.output.split(separator: "\n").sorted() == [
            "engine/a.c: defines a_three, which engine/a.h does not declare",
            "engine/a.h: declares b_two, which engine/a.c does not define",
            "include circle: a -> b -> a",
        ])
    }
}
