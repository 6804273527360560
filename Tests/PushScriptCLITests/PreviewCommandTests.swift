import Foundation
import TestSupport
import Testing

@Suite("pushscript preview")
struct PreviewCommandTests {
    /// A 1×1 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    static let script = """
        function didReceive(request, content)
          local file, err = download(content.userInfo.pic)
          if file then content:attach(file) else log.warn("no picture: %s", err) end
          content.title = "<b>Big</b> & bold"
          content.categoryIdentifier = "news"
        end
        """

    static let payload = #"{"aps": {"alert": {"title": "x", "body": "Rates <held> steady"}, "mutable-content": 1}, "pic": "https://cdn.example.com/p.png"}"#

    static let categories = #"[{"identifier": "news", "actions": [{"identifier": "open", "title": "Open"}, {"identifier": "del", "title": "Delete", "options": ["destructive"]}]}]"#

    @Test func writesOneSelfContainedPage() async throws {
        let dir = try folder(["rules.lua": Self.script, "push.json": Self.payload, "categories.json": Self.categories])
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.png.write(to: dir.appendingPathComponent("p.png"))
        let run = try await CLI.run([
            "preview", "rules.lua", "push.json", "--out", "page.html", "--app", "com.example.news",
            "--categories", "categories.json", "--media", "https://cdn.example.com/p.png=p.png",
        ], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout == "wrote page.html (completed)\n")
        let html = try String(contentsOf: dir.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<div class=\"title\">&lt;b&gt;Big&lt;/b&gt; &amp; bold</div>"))
        #expect(html.contains("<div class=\"body clamped\">Rates &lt;held&gt; steady</div>"))
        #expect(html.contains("<span class=\"app\">News</span>"))
        #expect(html.contains("data:image/png;base64,\(Self.png.base64EncodedString())"))
        #expect(html.contains("<div class=\"action\" data-identifier=\"open\">Open</div>"))
        #expect(html.contains("<div class=\"action destructive\" data-identifier=\"del\">Delete</div>"))
        #expect(!html.contains("<b>Big"))
        #expect(!html.contains("https://cdn.example.com"))
    }

    @Test func fallbackExitsThreeAndStillDraws() async throws {
        let dir = try folder(["rules.lua": "function didReceive(r, c) c.body = 'partial'; error('broken') end", "push.json": Self.payload])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["preview", "rules.lua", "push.json", "--out", "page.html"], in: dir)
        #expect(run.status == 3)
        let html = try String(contentsOf: dir.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(html.contains("<span class=\"outcome fallback\">fallback</span>"))
        #expect(html.contains("broken"))
        #expect(html.contains("<div class=\"body clamped\">partial</div>"))
    }

    @Test func outIsRequiredAndMustBeWritable() async throws {
        let dir = try folder(["rules.lua": Self.script, "push.json": Self.payload])
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try await CLI.run(["preview", "rules.lua", "push.json"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr == "pushscript preview: give --out FILE.html, the page to write\n")
        let unwritable = try await CLI.run(["preview", "rules.lua", "push.json", "--out", "no/such/folder/page.html"], in: dir)
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.hasPrefix("pushscript preview: cannot write no/such/folder/page.html"))
    }
}
