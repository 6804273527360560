// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PushScript",
    products: [
        .executable(name: "pushscript", targets: ["pushscript"]),
        .library(name: "ScriptHost", targets: ["ScriptHost"]),
        .library(name: "ScriptTesting", targets: ["ScriptTesting"]),
    ],
    targets: [
        // Debian's liblua5.4 (headers in /usr/include/lua5.4).
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // OpenSSL's libcrypto, used by the script API's crypto module only.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The only code that raises Lua errors: allocator, hooks, trampolines, guarded library.
        .target(
            name: "CLuaShims",
            dependencies: ["CLua"],
            cSettings: [.unsafeFlags(["-O2"])]
        ),
        .target(name: "LuaSandbox", dependencies: ["CLuaShims", "CLua"]),
        .target(name: "NotificationModel"),
        .target(name: "MediaDownloader"),
        .target(
            name: "ScriptHost",
            dependencies: ["LuaSandbox", "NotificationModel", "MediaDownloader", "COpenSSL"]
        ),
        .target(name: "ScriptTesting", dependencies: ["ScriptHost", "NotificationModel", "LuaSandbox"]),
        .executableTarget(name: "pushscript", dependencies: ["ScriptHost", "ScriptTesting"]),

        .testTarget(name: "LuaSandboxTests", dependencies: ["LuaSandbox", "CLuaShims", "TestSupport"], exclude: ["PatternCases"]),
        .testTarget(name: "NotificationModelTests", dependencies: ["NotificationModel"], exclude: ["Fixtures"]),
        .testTarget(name: "MediaDownloaderTests", dependencies: ["MediaDownloader", "TestSupport"]),
        .testTarget(name: "ScriptHostTests", dependencies: ["ScriptHost", "pushscript", "TestSupport"]),
        .testTarget(name: "ScriptTestingTests", dependencies: ["ScriptTesting", "TestSupport"]),
        // Runs the built pushscript (beside the test runner); golden files of its output.
        .testTarget(name: "PushScriptCLITests", dependencies: ["pushscript", "ScriptTesting", "TestSupport"], exclude: ["Golden"]),
        // What the test targets share (temporary folders, the built-binary runner); no product uses it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ]
)
