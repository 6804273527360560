import FixtureTransports
import Foundation
import TestSupport
import NotificationModel
@testable import ScriptHost

/// A payload from JSON text.
func payload(_ json: String) throws -> Payload {
    try Payload(jsonData: Data(json.utf8))
}

/// The standard test payload: title and body "original", mutable content.
func originalPayload(extra: String = "") throws -> Payload {
    try payload(#"{"aps": {"alert": {"title": "original", "body": "original"}, "mutable-content": 1}\#(extra)}"#)
}

/// Delivers `payload` through `host` with the script `source`.
func deliver(
    _ source: String, payload: Payload? = nil, host: ScriptHost = ScriptHost(), app: String? = "com.example.app",
    limits: ScriptLimits? = nil, name: String = "rules.lua"
) async throws -> DeliveryResult {
    let request = NotificationRequest(payload: try payload ?? originalPayload(), app: app, limits: limits)
    return await host.deliver(request, script: .script(Script(name: name, source: source)))
}

/// Small limits for tests that hit them.
let testLimits = ScriptLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, time: .seconds(2))

/// A folder of media files for a test, removed with ``remove()``.
struct MediaFolder {
    private let folder: TemporaryFolder
    var url: URL { folder.url }

    init() throws { folder = try TemporaryFolder("pushscript-media") }

    /// Writes a file and returns its URL.
    func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        URL(fileURLWithPath: try folder.write(name, Data(bytes)))
    }

    func remove() { folder.remove() }

    /// The start of a JPEG file, padded.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0] + Array(repeating: 0, count: 2000) + [0xFF, 0xD9]
    /// The start of a PNG file, padded.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 1000)
}

/// A host whose attachments go to a folder of the test's own, and that never uses the network:
/// `media` answers its downloads.
func isolatedHost(_ directory: URL, media: [String: FixtureMedia] = [:]) -> ScriptHost {
    ScriptHost(configuration: HostConfiguration(attachmentDirectory: directory, offline: true), answers: answers(media: media))
}

/// Answers for downloads and posts, as a fixture's `media` and `http` give them; nil for none.
func answers(media: [String: FixtureMedia] = [:], http: [String: PostAnswer] = [:]) -> RequestAnswers? {
    guard !media.isEmpty || !http.isEmpty else { return nil }
    let transport = FixtureTransport(media: media, posts: http)
    return RequestAnswers(transport: transport, files: transport.files)
}

/// The files left under a folder (recursively).
func filesLeft(under url: URL) -> [String] {
    guard let e = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    return e.compactMap { ($0 as? URL).flatMap { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true ? $0.path : nil } }
}
