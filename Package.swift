// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "PushScript",
    products: [
        .executable(name: "pushscript", targets: ["pushscript"]),
        .library(name: "ScriptHost", targets: ["ScriptHost"]),
        .library(name: "NotificationModel", targets: ["NotificationModel"]),
        .library(name: "ScriptTesting", targets: ["ScriptTesting"]),
    ],
    traits: [
        .trait(
            name: "PortableLimits",
            description: "The limit timers' portable backend (a watchdog thread, no signals) on Linux too; "
                + "a build for another system has it without the trait."
        ),
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
            cSettings: [
                .unsafeFlags(["-O2"]),
                .define("PSS_PORTABLE_LIMITS", .when(traits: ["PortableLimits"])),
            ]
        ),
        // Test support in C (plain states, the pattern matcher side by side with stock Lua):
        // linked only into the tests.
        .target(
            name: "CLuaShimsTesting",
            dependencies: ["CLuaShims", "CLua"],
            cSettings: [.headerSearchPath("../CLuaShims")]
        ),
        // Sees pss.h only, not lua.h: Swift cannot call a Lua API that raises.
        .target(name: "LuaSandbox", dependencies: ["CLuaShims"]),
        .target(name: "NotificationModel"),
        .target(name: "MediaDownloader", dependencies: ["NotificationModel"]),
        .target(
            name: "ScriptHost",
            dependencies: ["LuaSandbox", "NotificationModel", "MediaDownloader", "COpenSSL"]
        ),
        .target(name: "ScriptTesting", dependencies: ["ScriptHost", "NotificationModel", "LuaSandbox"]),
        .executableTarget(name: "pushscript", dependencies: ["ScriptHost", "ScriptTesting"]),

        .testTarget(name: "LuaSandboxTests", dependencies: ["LuaSandbox", "CLuaShims", "CLuaShimsTesting", "TestSupport"], exclude: ["PatternCases"]),
        .testTarget(name: "NotificationModelTests", dependencies: ["NotificationModel"], exclude: ["Fixtures"]),
        .testTarget(name: "MediaDownloaderTests", dependencies: ["MediaDownloader", "NotificationModel", "TestSupport"]),
        .testTarget(name: "ScriptHostTests", dependencies: ["ScriptHost", "pushscript", "TestSupport"]),
        .testTarget(name: "ScriptTestingTests", dependencies: ["ScriptTesting", "TestSupport"]),
        // Runs the built pushscript (beside the test runner); golden files of its output.
        .testTarget(name: "PushScriptCLITests", dependencies: ["pushscript", "ScriptTesting", "TestSupport"], exclude: ["Golden"]),
        // What the test targets share (temporary folders, the built-binary runner); no product uses it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ]
)
