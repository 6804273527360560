import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// `examples/encrypted-inbox`: a script that decrypts an encrypted body with a key from
/// `keys.get`, localizes the category and counts the badge, run through the built `pushscript`.
///
/// Its payloads are made here: `PUSHSCRIPT_WRITE_EXAMPLES=1 swift test --filter CryptoExampleTests`
/// writes them again; otherwise the test checks that the committed ones are exactly the
/// encryption of ``message``.
@Suite struct CryptoExampleTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/encrypted-inbox", isDirectory: true)
    /// The example's AES-256 key (`--key inbox=...`, the fixtures' `keys`).
    static let key = "Z7BBxtUdGPyk0UNR3xGd+TRe7orUiyDLXqM5+sxb8Jg="
    static let nonce = "M54Wi/Y060/SciNC"
    static let message = #"{"from":"Anna","text":"Sind wir morgen noch zum Mittagessen verabredet?","thread":"anna"}"#

    /// The payload carrying ``message`` sealed under ``key``; with `tamper`, one bit of the tag
    /// flipped.
    static func payload(tamper: Bool = false) throws -> JSONValue {
        let keyBytes = [UInt8](Data(base64Encoded: key)!)
        let nonceBytes = [UInt8](Data(base64Encoded: nonce)!)
        var sealed = try AEAD.seal(.aes256GCM, key: keyBytes, nonce: nonceBytes, plaintext: Array(message.utf8), aad: Array("inbox".utf8))
        if tamper { sealed.tag[0] ^= 0x01 }
        return .object([
            "aps": .object([
                "alert": .object(["title": "New message", "body": "Open the app to read it"]),
                "category": "message",
                "mutable-content": 1,
            ]),
            "enc": .object([
                "kid": "inbox",
                "nonce": .string(nonce),
                "ciphertext": .string(Data(sealed.ciphertext).base64EncodedString()),
                "tag": .string(Data(sealed.tag).base64EncodedString()),
            ]),
        ])
    }

    @Test func thePayloadsAreRealEncryptions() throws {
        let files = ["push.json": try Self.payload(), "tampered.json": try Self.payload(tamper: true)]
        for (name, expected) in files.sorted(by: { $0.key < $1.key }) {
            let url = Self.folder.appendingPathComponent(name)
            if ProcessInfo.processInfo.environment["PUSHSCRIPT_WRITE_EXAMPLES"] == "1" {
                try Data((try expected.jsonString(prettyPrinted: true) + "\n").utf8).write(to: url)
            }
            #expect(try JSONValue(jsonData: Data(contentsOf: url)) == expected, "\(name)")
        }
        // The committed payload opens with the key, and only with it.
        let enc = try #require(try JSONValue(jsonData: Data(contentsOf: Self.folder.appendingPathComponent("push.json")))["enc"])
        func bytes(_ field: String) -> [UInt8] { [UInt8](Data(base64Encoded: enc[field]?.stringValue ?? "") ?? Data()) }
        let opened = try AEAD.open(
            .aes256GCM, key: [UInt8](Data(base64Encoded: Self.key)!), nonce: bytes("nonce"), ciphertext: bytes("ciphertext"),
            tag: bytes("tag"), aad: Array("inbox".utf8))
        #expect(String(decoding: opened, as: UTF8.self) == Self.message)
    }

    @Test func runDecryptsLocalizesAndCountsTheBadge() async throws {
        let state = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let arguments = [
            "run", "inbox.lua", "push.json", "--app", "com.example.inbox", "--key", "inbox=\(Self.key)", "--locale", "de-AT,en",
            "--categories", "categories.json", "--state", state.path,
        ]
        for badge in 1...2 {
            let run = try await runPushscript(arguments, in: Self.folder)
            #expect(run.status == 0, "\(run.stderr)")
            let result = try JSONValue(jsonData: Data(run.stdout.utf8))
            #expect(result["outcome"] == "completed")
            #expect(result["content"]?["title"] == "Anna")
            #expect(result["content"]?["body"] == "Sind wir morgen noch zum Mittagessen verabredet?")
            #expect(result["content"]?["threadIdentifier"] == "anna")
            #expect(result["content"]?["categoryIdentifier"] == "message_de")
            #expect(result["content"]?["badge"] == .integer(Int64(badge)))
            #expect(result["content"]?["userInfo"]?["enc"] == nil)
        }
        // Another language falls back to English; a tampered payload keeps its placeholder.
        var english = arguments
        english[english.firstIndex(of: "de-AT,en")!] = "fr-FR"
        english[english.firstIndex(of: "push.json")!] = "tampered.json"
        let run = try await runPushscript(english, in: Self.folder)
        let result = try JSONValue(jsonData: Data(run.stdout.utf8))
        #expect(result["content"]?["categoryIdentifier"] == "message_en")
        #expect(result["content"]?["title"] == "New message")
        #expect(result["content"]?["badge"] == .integer(3))
        #expect(result["logs"]?[0]?["message"] == "cannot open the message: authentication failed")
    }

    @Test func theExampleFixturesPass() async throws {
        let run = try await runPushscript(["test", Self.folder.path], in: Self.folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasSuffix("4 passed, 0 failed\n"), "\(run.stdout)")
    }
}
