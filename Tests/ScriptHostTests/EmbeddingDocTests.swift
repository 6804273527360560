import Foundation
import NotificationModel
import ScriptHost
import Synchronization
import Testing

/// The code of `docs/embedding.md`, with public API only: a host, a hook, a folder of
/// scripts, a payload from an iOS `userInfo`, and the result read back.
@Suite struct EmbeddingDocTests {
    @Test func theEmbeddingPageWorksAsWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-embedding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scriptsFolder = folder.appendingPathComponent("scripts")
        let appGroup = folder
        let inboxKey: [UInt8] = Array(repeating: 7, count: 32)
        @Sendable func keychainOpen(_ sealed: [UInt8]) throws -> [UInt8] { sealed.reversed() }
        try Data("""
            function didReceive(request, content)
              content.title = hooks.unwrap(content.userInfo.sealed)
              content.badge = store.increment("unread")
              content.subtitle = tostring(#keys.get("inbox"))
            end
            """.utf8).write(to: scriptsFolder.appendingPathComponent("com.example.news.lua"))
        let userInfo: [AnyHashable: Any] = ["aps": ["alert": "New message", "mutable-content": 1], "sealed": "olleh"]

        // The page's code, from here.
        let host = ScriptHost(configuration: HostConfiguration(
            limits: ScriptLimits(cpuTime: .milliseconds(200), memoryBytes: 8 << 20, time: .seconds(25)),
            locales: Locale.preferredLanguages,
            keys: ["inbox": inboxKey],
            stateDirectory: appGroup.appendingPathComponent("pushscript", isDirectory: true)))

        host.register(hook: "unwrap") { args in
            guard case .string(let sealed)? = args.first else { throw HookError("unwrap takes a string") }
            return [.string(try keychainOpen(sealed))]
        }

        let scripts = ScriptDirectory(scriptsFolder) { event in
            switch event {
            case .loaded(let app, let file, _): print("\(app): \(file) is in service")
            case .rejected(let app, let message, _): print("\(app): \(message)")
            }
        }

        let payload = try Payload(jsonData: JSONSerialization.data(withJSONObject: userInfo))
        let result = await host.deliver(NotificationRequest(payload: payload, app: "com.example.news"), from: scripts)

        let content = result.content          // NotificationContent: title, body, badge, attachments, …
        if result.outcome == .fallback { print("fell back:", result.reason?.message ?? "") }
        for attachment in content.attachments { _ = URL(string: attachment.url) }
        // To here.

        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(content.title == "hello")
        #expect(content.badge == 1)
        #expect(content.subtitle == "32")
        #expect(result.suppressed == false)
        #expect(result.jsonLine(id: 1).hasPrefix(#"{"id":1,"outcome":"completed","#))
        #expect(FileManager.default.fileExists(atPath: appGroup.appendingPathComponent("pushscript/com.example.news.store.json").path))

        let inline = await host.deliver(
            NotificationRequest(payload: payload, app: "com.example.news"),
            script: .script(Script(name: "inline.lua", source: "function didReceive(r, c) c.body = 'inline' end")))
        #expect(inline.content.body == "inline")
        let none = await host.deliver(NotificationRequest(payload: payload, app: "com.example.other"), from: scripts)
        #expect(none.reason?.kind == .noScript)
    }

    @Test func theSessionCodeWorksAsWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            function didReceive(request, content)
              content.title = "ready"
              while true do end
            end
            function bestAttempt(content, reason) content.body = reason.message end
            """.utf8).write(to: folder.appendingPathComponent("com.example.news.lua"))
        let host = ScriptHost(configuration: HostConfiguration(
            limits: ScriptLimits(cpuTime: .seconds(20), memoryBytes: 8 << 20, time: .seconds(25))))
        let scripts = ScriptDirectory(folder)
        let payload = try Payload(jsonData: Data(#"{"aps": {"alert": "New message", "mutable-content": 1}}"#.utf8))
        let handed = Mutex<NotificationContent?>(nil)
        let contentHandler: @Sendable (NotificationContent) -> Void = { content in handed.withLock { $0 = content } }

        let done = DispatchSemaphore(value: 0)
        // The page's code, from here.
        /// didReceive: start the request, hand the content over when it is ready, then wait for
        /// afterDelivery before the process may go.
        func receive(
            _ payload: Payload, host: ScriptHost, scripts: ScriptDirectory,
            contentHandler: @escaping @Sendable (NotificationContent) -> Void
        ) -> DeliverySession {
            let session = host.start(NotificationRequest(payload: payload, app: "com.example.news"), from: scripts)
            Task {
                let delivered = await session.delivered()
                contentHandler(delivered.content)      // mapped onto UNMutableNotificationContent
                _ = await session.finished()           // afterDelivery's receipts are in its posts
                done.signal()
            }
            return session
        }

        /// serviceExtensionTimeWillExpire: the best attempt is handed over at once.
        func timeWillExpire(_ session: DeliverySession) {
            session.expire()
        }
        // To here (but for `done`, which tells the test).

        let session = receive(payload, host: host, scripts: scripts, contentHandler: contentHandler)
        try await Task.sleep(for: .milliseconds(300))
        timeWillExpire(session)
        #expect(done.wait(timeout: .now() + 2) == .success)
        let content = try #require(handed.withLock { $0 })
        #expect(content.title == "ready")
        #expect(content.body == "the system's time ran out (serviceExtensionTimeWillExpire) before didReceive returned", "\(content)")
        #expect(!session.identifier.isEmpty)
    }
}
