// swift-tools-version:6.1
import PackageDescription

// Lua 5.4: Debian's liblua5.4 on a Linux host; on any other host (Xcode on a Mac, building
// for iOS or macOS) a C target built from Lua's own sources, which docs/apple.md says how to
// put in Vendor/lua/src.
#if os(Linux)
let lua = Target.systemLibrary(name: "CLua", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])])
#else
let lua = Target.target(
    name: "CLua",
    path: "Vendor/lua/src",
    exclude: ["lua.c", "luac.c", "Makefile"],
    publicHeadersPath: ".",
    cSettings: [
        // As Lua's own Makefile and Debian build it: math.pow and the other 5.3 functions.
        .define("LUA_COMPAT_5_3"),
        .define("LUA_USE_MACOSX", .when(platforms: [.macOS, .macCatalyst])),
        .define("LUA_USE_IOS", .when(platforms: [.iOS, .tvOS, .watchOS, .visionOS])),
        .define("LUA_USE_LINUX", .when(platforms: [.linux])),
    ]
)
#endif

// -O2 for the C engine even in debug builds, where SwiftPM accepts an unsafe flag; Xcode may
// refuse a package with unsafe flags as an app's dependency, so there is none off Linux. The
// trait PortableLimits gives Linux the limit timers' portable backend (pss_timer.h), which
// every other system has anyway.
let portableLimits = CSetting.define("PSS_PORTABLE_LIMITS", .when(traits: ["PortableLimits"]))
#if os(Linux)
let engineSettings: [CSetting] = [.unsafeFlags(["-O2"]), portableLimits]
#else
let engineSettings: [CSetting] = [portableLimits]
#endif

let package = Package(
    name: "PushScript",
    // Where Mutex, Atomic and task executors are (an Apple build; Linux has no minimum).
    platforms: [.iOS(.v18), .macOS(.v15)],
    products: [
        .executable(name: "pushscript", targets: ["pushscript"]),
        .library(name: "ScriptHost", targets: ["ScriptHost"]),
        .library(name: "NotificationModel", targets: ["NotificationModel"]),
        .library(name: "ScriptTesting", targets: ["ScriptTesting", "FixtureTransports"]),
        .library(name: "ScriptBundles", targets: ["ScriptBundles"]),
        // The Notification Service Extension adapter (UserNotifications); empty on Linux.
        .library(name: "ServiceExtension", targets: ["ServiceExtension"]),
    ],
    traits: [
        .trait(
            name: "PortableLimits",
            description: "The limit timers' portable backend (a watchdog thread, no signals) on Linux too; "
                + "a build for another system has it without the trait."
        ),
    ],
    targets: [
        // Lua 5.4 (above): Debian's on Linux, built from its sources elsewhere.
        lua,
        // OpenSSL's libcrypto for the script API's crypto module and bundle signatures, opened
        // with dlopen on first use, not linked (Debian's libssl-dev for its headers).
        .target(name: "CCrypto"),
        // The sandbox engine in C, the only code that raises Lua errors: the limits (allocator,
        // hook, timers), the value codec and proxies, host calls, the guarded library, states.
        .target(
            name: "CLuaSandbox",
            dependencies: ["CLua"],
            cSettings: engineSettings
        ),
        // The engine's test support in C (plain states, the pattern matcher side by side with
        // stock Lua): linked only into the tests.
        .target(
            name: "CLuaSandboxTesting",
            dependencies: ["CLuaSandbox", "CLua"],
            cSettings: [.headerSearchPath("../CLuaSandbox")]
        ),
        // Sees pss.h only, not lua.h: Swift cannot call a Lua API that raises.
        .target(name: "LuaSandbox", dependencies: ["CLuaSandbox"]),
        .target(name: "NotificationModel"),
        // libcurl opened with dlopen on the first transfer, not linked: curl's headers for its
        // types only (Debian's libcurl4-openssl-dev). dlopen is in glibc's libc from 2.34; where
        // it is libdl's, the Swift runtime links libdl already.
        .target(name: "CCurl"),
        .target(
            name: "MediaDownloader",
            dependencies: [
                "NotificationModel",
                // The network on Linux (CurlTransport); URLSession elsewhere.
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ]
        ),
        // Answers in place of the network (fixtures, `--media`, `--http-map`): only the testing
        // product and the tests use it.
        .target(name: "FixtureTransports", dependencies: ["MediaDownloader"]),
        // The bundled Lua modules (`require "pushscript.NAME"`) are .lua files embedded as bytes.
        .target(
            name: "ScriptHost",
            dependencies: [
                "LuaSandbox", "NotificationModel", "MediaDownloader",
                // OpenSSL on Linux only; Apple platforms use CryptoKit (docs/apple.md).
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
            ],
            resources: [.embedInCode("BundledModules/providers.lua")]
        ),
        // Signed script bundles: the format, keys, the installed state, rollout and rollback.
        .target(
            name: "ScriptBundles",
            dependencies: [
                "ScriptHost", "NotificationModel",
                // Ed25519 through OpenSSL on Linux; CryptoKit elsewhere (docs/apple.md).
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(name: "ScriptTesting", dependencies: ["ScriptHost", "NotificationModel", "LuaSandbox", "ScriptBundles", "FixtureTransports"]),
        .executableTarget(name: "pushscript", dependencies: ["ScriptHost", "ScriptTesting", "ScriptBundles", "NotificationModel"]),
        // Maps results onto UserNotifications' types; every file is under
        // `#if canImport(UserNotifications)`, so it compiles to nothing on Linux.
        .target(name: "ServiceExtension", dependencies: ["ScriptHost", "ScriptBundles", "NotificationModel"]),

        .testTarget(name: "LuaSandboxTests", dependencies: ["LuaSandbox", "CLuaSandbox", "CLuaSandboxTesting", "TestSupport"], exclude: ["PatternCases"]),
        .testTarget(name: "NotificationModelTests", dependencies: ["NotificationModel"], exclude: ["Fixtures"]),
        .testTarget(name: "MediaDownloaderTests", dependencies: ["MediaDownloader", "FixtureTransports", "NotificationModel", "TestSupport"]),
        .testTarget(name: "ScriptHostTests", dependencies: ["ScriptHost", "MediaDownloader", "FixtureTransports", "pushscript", "TestSupport"]),
        .testTarget(name: "ScriptTestingTests", dependencies: ["ScriptTesting", "FixtureTransports", "TestSupport"]),
        .testTarget(name: "ScriptBundlesTests", dependencies: ["ScriptBundles", "ScriptHost", "NotificationModel", "pushscript", "TestSupport"]),
        // Runs the built pushscript (beside the test runner); golden files of its output.
        .testTarget(name: "PushScriptCLITests", dependencies: ["pushscript", "ScriptTesting", "TestSupport"], exclude: ["Golden"]),
        // Type-checks the adapter and the docs' Swift against stand-ins of Apple's frameworks
        // (StandIns/, built by the test itself, not by SwiftPM).
        .testTarget(
            name: "ServiceExtensionTests", dependencies: ["ServiceExtension", "ScriptHost", "ScriptBundles", "NotificationModel", "TestSupport"],
            exclude: ["StandIns"]),
        // What the test targets share (temporary folders, the built-binary runner); no product uses it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ]
)
