import Foundation
import TestSupport
import Testing

/// What builds only for Apple platforms is type-checked here against stand-ins of Apple's
/// frameworks (`StandIns/`) and the built ScriptHost and NotificationModel, so that it cannot
/// rot: the extension adapter, the CryptoKit implementation, the URLSession transport, the
/// Apple branch of the package manifest, and the Swift of `docs/embedding.md` and
/// `docs/apple.md`. Each check fails with
/// the compiler's errors.
@Suite struct ServiceExtensionTypeCheckTests {
    static let adapter = SwiftTypeChecker.root.appendingPathComponent("Sources/ServiceExtension")

    /// The adapter's files, and one that uses its public API outside any `#if`: a check that
    /// compiled the adapter to nothing would fail on it.
    func adapterFiles() throws -> [URL] {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.adapter.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count >= 5, "\(files)")
        let use = try TemporaryFolder.make("pushscript-adapter").appendingPathComponent("AdapterUse.swift")
        try Data("""
            import NotificationModel
            import ScriptBundles
            import ScriptHost
            import UserNotifications

            func useEverything(_ host: ScriptHost, _ directory: ScriptDirectory, _ installed: InstalledScripts, _ result: DeliveryResult) {
                let adapter = NotificationServiceAdapter(host: host, scripts: .directory(directory), app: "com.example.app")
                adapter.serviceExtensionTimeWillExpire()
                let shipped = NotificationServiceAdapter(host: host, scripts: .installed(installed), app: "com.example.app")
                shipped.serviceExtensionTimeWillExpire()
                let _: UNNotificationContent = NotificationServiceAdapter.content(for: result)
                let _: UNNotificationCategory = NotificationServiceAdapter.category(NotificationCategory(identifier: "c"))
                NotificationServiceAdapter.registerCategories(host.categories(app: "com.example.app"))
            }

            """.utf8).write(to: use)
        return files.map { Self.adapter.appendingPathComponent($0) } + [use]
    }

    @Test func theAdapterTypeChecks() async throws {
        let checker = try await SwiftTypeChecker.shared()
        let out = try await checker.typecheck(adapterFiles(), moduleName: "ServiceExtension")
        #expect(out.status == 0, "\(out.stderr)")
    }

    @Test func aWrongCallInTheAdapterFailsTheCheck() async throws {
        let checker = try await SwiftTypeChecker.shared()
        let wrong = try TemporaryFolder.make("pushscript-adapter").appendingPathComponent("Wrong.swift")
        try Data("import UserNotifications\nfunc wrong(_ c: UNMutableNotificationContent) { c.subtitles = \"x\" }\n".utf8).write(to: wrong)
        let out = try await checker.typecheck(adapterFiles() + [wrong], moduleName: "ServiceExtension")
        #expect(out.status != 0)
        #expect(out.stderr.contains("has no member 'subtitles'"), "\(out.stderr)")
    }

    @Test func theCryptoKitImplementationTypeChecks() async throws {
        let checker = try await SwiftTypeChecker.shared()
        let file = SwiftTypeChecker.root.appendingPathComponent("Sources/ScriptHost/Crypto/CryptoKitCrypto.swift")
        let use = try TemporaryFolder.make("pushscript-cryptokit").appendingPathComponent("Use.swift")
        try Data("let implementation: any ScriptCrypto = CryptoKitCrypto()\n".utf8).write(to: use)
        // The file is ScriptHost's: it sees ScriptHost's public API without importing it.
        let out = try await checker.typecheck([file, use], moduleName: "CryptoKitCheck", imports: ["ScriptHost"])
        #expect(out.status == 0, "\(out.stderr)")
    }

    /// The URLSession transport is built off Linux only; here it is checked against
    /// FoundationNetworking's URLSession, the same API, with its `#if` taken as true.
    @Test func theURLSessionTransportTypeChecks() async throws {
        let checker = try await SwiftTypeChecker.shared()
        let source = try String(
            contentsOf: SwiftTypeChecker.root.appendingPathComponent("Sources/MediaDownloader/URLSessionTransport.swift"), encoding: .utf8)
        #expect(source.contains("#if !os(Linux)\n"))
        let folder = try TemporaryFolder.make("pushscript-urlsession")
        let file = folder.appendingPathComponent("URLSessionTransport.swift")
        try Data(source.replacingOccurrences(of: "#if !os(Linux)\n", with: "#if true\n").utf8).write(to: file)
        let use = folder.appendingPathComponent("Use.swift")
        try Data("let network: any Transport = URLSessionTransport(configuration: URLSessionTransport.defaultConfiguration())\n".utf8).write(to: use)
        // The file is MediaDownloader's: it sees MediaDownloader's public API without importing it.
        let out = try await checker.typecheck([file, use], moduleName: "URLSessionCheck", imports: ["MediaDownloader"])
        #expect(out.status == 0, "\(out.stderr)")
    }

    @Test func theManifestTypeChecksForEveryHost() async throws {
        let checker = try await SwiftTypeChecker.shared()
        let manifest = try String(contentsOf: SwiftTypeChecker.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("#if os(Linux)"))
        let folder = try TemporaryFolder.make("pushscript-manifest")
        for (name, text) in [("linux", manifest), ("apple", manifest.replacingOccurrences(of: "#if os(Linux)", with: "#if false"))] {
            let file = folder.appendingPathComponent("\(name)/Package.swift")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            let out = try await checker.typecheckManifest(file)
            #expect(out.status == 0, "\(name): \(out.stderr)")
        }
    }

    /// What the pages' examples take as given (an app's own values), declared for the check.
    static let pageContext: [String: String] = [
        "docs/embedding.md": """
            import Foundation
            let inboxKey: [UInt8] = []
            let appGroup = URL(fileURLWithPath: "/group")
            let scriptsFolder = URL(fileURLWithPath: "/scripts")
            nonisolated(unsafe) let userInfo: [AnyHashable: Any] = [:]
            func keychainOpen(_ sealed: [UInt8]) throws -> [UInt8] { sealed }

            """,
        "docs/apple.md": "",
    ]

    @Test(arguments: ["docs/embedding.md", "docs/apple.md"]) func theSwiftOfAPageTypeChecks(_ page: String) async throws {
        let checker = try await SwiftTypeChecker.shared()
        let blocks = try SwiftBlock.blocks(of: page)
        #expect(blocks.contains { !$0.isManifest }, "\(page) has no Swift to check")
        for block in blocks {
            let folder = try TemporaryFolder.make("pushscript-doc")
            let main = folder.appendingPathComponent(block.isManifest ? "Package.swift" : "main.swift")
            try Data(block.code.utf8).write(to: main)
            let out: CLIOutput
            if block.isManifest {
                out = try await checker.typecheckManifest(main)
            } else {
                let context = folder.appendingPathComponent("Context.swift")
                try Data((Self.pageContext[page] ?? "").utf8).write(to: context)
                out = try await checker.typecheck([main, context], moduleName: "DocExample", script: true)
            }
            #expect(out.status == 0, "\(block): \(out.stderr)")
        }
    }
}
