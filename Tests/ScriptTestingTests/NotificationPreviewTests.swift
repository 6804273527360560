import FixtureTransports
import Foundation
import TestSupport
import NotificationModel
import ScriptHost
import Testing
@testable import ScriptTesting

/// A 1×1 PNG.
let onePixelPNG = [UInt8](Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!)

/// A file in a fresh temporary folder.
func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> URL {
    let folder = try TemporaryFolder.make("pushscript-tests")
    let file = folder.appendingPathComponent(name)
    try Data(bytes).write(to: file)
    return file
}

/// Delivers `payload` through `source` with media answers and renders the preview.
private func preview(
    _ source: String, payload: String = #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}}"#,
    media: [String: URL] = [:], categories: [NotificationCategory] = []
) async throws -> (html: String, result: DeliveryResult) {
    let attachments = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-preview-test-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: attachments) }
    let host = ScriptHost(
        configuration: HostConfiguration(categories: categories, attachmentDirectory: attachments, offline: true),
        answers: FixtureAnswers(media: media.mapValues { FixtureMedia(file: $0) }).requestAnswers)
    let request = NotificationRequest(payload: try Payload(jsonData: Data(payload.utf8)), app: "com.example.news")
    let result = await host.deliver(request, script: .script(Script(name: "rules.lua", source: source)))
    let page = NotificationPreview(result: result, app: "com.example.news", categories: host.categories(app: "com.example.news"), scriptName: "rules.lua")
    return (page.html(), result)
}

@Suite("Notification preview")
struct NotificationPreviewTests {
    @Test func drawsTextsButtonsAndTheInlinedImage() async throws {
        let picture = try temporaryFile("pic.png", onePixelPNG)
        let source = """
            function didReceive(request, content)
              content:attach(assert(download("https://cdn.example.com/pic.png")))
              content.subtitle = "Morning edition"
              categories.register{identifier = "news", actions = {
                {identifier = "read", title = "Read now", options = {"foreground"}},
                {identifier = "delete", title = "Delete", options = {"destructive"}},
              }}
              content.categoryIdentifier = "news"
            end
            """
        let (html, result) = try await preview(source, media: ["https://cdn.example.com/pic.png": picture])
        #expect(result.outcome == .completed)
        #expect(html.contains("<div class=\"title\">T</div>"))
        #expect(html.contains("<div class=\"subtitle\">Morning edition</div>"))
        #expect(html.contains("<div class=\"body clamped\">B</div>"))
        #expect(html.contains("<span class=\"app\">News</span>"))
        #expect(html.contains("<span class=\"time\">now</span>"))
        #expect(html.contains("data:image/png;base64,\(Data(onePixelPNG).base64EncodedString())"))
        #expect(html.contains("class=\"thumbnail attachment-image\""))
        #expect(html.contains("class=\"large attachment-image\" style=\"aspect-ratio: 1 / 1;\""))
        #expect(html.contains("<div class=\"action\" data-identifier=\"read\">Read now</div>"))
        #expect(html.contains("<div class=\"action destructive\" data-identifier=\"delete\">Delete</div>"))
        #expect(html.contains("<span class=\"outcome completed\">completed</span>"))
    }

    @Test func loadsNothingFromOutside() async throws {
        let (html, _) = try await preview("function didReceive(r, c) c.body = 'see https://example.com/x' end")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("src="))
        #expect(!html.contains("url(http"))
        #expect(!html.contains("@import"))
    }

    @Test func escapesEveryText() async throws {
        let source = """
            function didReceive(request, content)
              content.title = "<img src=x onerror=alert(1)> & \\"quoted\\" 'single'"
              content.body = "</div><script>alert(2)</script>"
              log.warn("<b>%s</b>", "bold")
            end
            """
        let (html, _) = try await preview(source)
        #expect(!html.contains("<img"))
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<b>bold"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &#39;single&#39;"))
        #expect(html.contains("&lt;/div&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
        #expect(html.contains("<td>&lt;b&gt;bold&lt;/b&gt;</td>"))
    }

    @Test func declaredCategoriesGiveButtonsAndAMissingOneSaysSo() async throws {
        let declared = NotificationCategory(identifier: "chat", actions: [
            NotificationAction(identifier: "reply", title: "Reply", textInput: .init(buttonTitle: "Send", placeholder: "Message")),
        ])
        let (html, _) = try await preview("function didReceive(r, c) c.categoryIdentifier = 'chat' end", categories: [declared])
        #expect(html.contains("data-identifier=\"reply\">Reply<small>text input · Message</small>"))
        let (missing, _) = try await preview("function didReceive(r, c) c.categoryIdentifier = 'nope' end")
        #expect(missing.contains("Category <code>nope</code> is neither registered nor declared"))
        #expect(!missing.contains("class=\"actions\""))
    }

    @Test func audioIsALabelledPlaceholder() async throws {
        var wav = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8)
        wav += [UInt8](repeating: 0, count: 200)
        let sound = try temporaryFile("sound.wav", wav)
        let source = "function didReceive(r, c) c:attach(assert(download('https://cdn.example.com/s'))) end"
        let (html, result) = try await preview(source, media: ["https://cdn.example.com/s": sound])
        #expect(result.content.attachments.first?.type == "com.microsoft.waveform-audio")
        #expect(html.contains("<div class=\"media-placeholder\">♫ Audio<small>com.microsoft.waveform-audio · "))
        #expect(html.contains("aria-label=\"audio\""))
        #expect(!html.contains("data:image"))
    }

    @Test func suppressedIsShownAsSuch() async throws {
        let (html, result) = try await preview("function didReceive(r, c) c:suppress() end")
        #expect(result.suppressed)
        #expect(html.contains("<main class=\"phone suppressed\">"))
        #expect(html.contains("Suppressed: the script called <code>content:suppress()</code>"))
        #expect(html.contains("<span class=\"outcome suppressed\">suppressed</span>"))
    }

    @Test func fallbackShowsTheReason() async throws {
        let (html, result) = try await preview("function didReceive(r, c) c.title = 'half'; error('boom') end")
        #expect(result.outcome == .fallback)
        #expect(html.contains("<span class=\"outcome fallback\">fallback</span>"))
        #expect(html.contains("<p class=\"reason\"><b>error</b>: rules.lua:1: boom</p>"))
        #expect(html.contains("<div class=\"title\">half</div>"))
    }

    @Test func hiddenThumbnailAndClippingRect() async throws {
        let picture = try temporaryFile("pic.png", onePixelPNG)
        let url = "https://cdn.example.com/pic.png"
        let hidden = "function didReceive(r, c) c:attach(assert(download('\(url)')), {thumbnailHidden = true}) end"
        let (noThumb, _) = try await preview(hidden, media: [url: picture])
        #expect(!noThumb.contains("class=\"thumbnail"))
        #expect(noThumb.contains("class=\"large attachment-image\""))
        let clipped = "function didReceive(r, c) c:attach(assert(download('\(url)')), {thumbnailClippingRect = {x = 0.25, y = 0, width = 0.5, height = 1}}) end"
        let (clip, _) = try await preview(clipped, media: [url: picture])
        #expect(clip.contains("background-size: 200.000% 100.000%; background-position: 50.000% 0.000%;"))
    }

    @Test func pixelSizesFromHeaders() {
        #expect(PreviewImage.pixelSize(onePixelPNG).map { [$0.width, $0.height] } == [1, 1])
        let gif = Array("GIF89a".utf8) + [0x40, 0x01, 0xC8, 0x00]
        #expect(PreviewImage.pixelSize(gif).map { [$0.width, $0.height] } == [320, 200])
        // SOI, an APP0 segment of 16 bytes, then SOF0 with height 480 and width 640.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + [UInt8](repeating: 0, count: 14)
            + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03]
        #expect(PreviewImage.pixelSize(jpeg).map { [$0.width, $0.height] } == [640, 480])
        #expect(PreviewImage.pixelSize(Array("not an image".utf8)) == nil)
    }

    @Test func appNameFromBundleIdentifier() {
        let result = DeliveryResult(outcome: .completed, reason: nil, content: NotificationContent(), stats: .init(cpuMs: 0, wallMs: 0, memoryPeakBytes: 0))
        #expect(NotificationPreview(result: result, app: "com.example.news", categories: []).appName == "News")
        #expect(NotificationPreview(result: result, app: nil, categories: []).appName == "App")
        let empty = NotificationPreview(result: result, app: nil, categories: []).html()
        #expect(empty.contains("No title, subtitle or body: iOS shows no banner"))
        #expect(!empty.contains("<dt>app</dt>"))
        var content = NotificationContent()
        content.title = "t"
        content.categoryIdentifier = "c"
        let withIcons = DeliveryResult(outcome: .completed, reason: nil, content: content, stats: .init(cpuMs: 0, wallMs: 0, memoryPeakBytes: 0))
        let category = NotificationCategory(identifier: "c", actions: [
            NotificationAction(identifier: "a", title: "Like", icon: .system("hand.thumbsup")),
            NotificationAction(identifier: "b", title: "Reply", icon: .template("reply-icon")),
        ])
        let page = NotificationPreview(result: withIcons, app: nil, categories: [category]).html()
        #expect(page.contains("Like<small>icon: SF Symbol hand.thumbsup</small>"))
        #expect(page.contains("Reply<small>icon: image reply-icon</small>"))
        #expect(NotificationPreview(result: result, app: "com.example.news", categories: []).html().contains("<dt>app</dt><dd>com.example.news</dd>"))
    }
}
