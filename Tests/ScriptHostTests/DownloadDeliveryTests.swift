import FixtureTransports
import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

@Suite(.serialized) struct DownloadDeliveryTests {
    @Test func downloadAndAttachFromMedia() async throws {
        let media = try MediaFolder()
        let out = try MediaFolder()
        defer { media.remove(); out.remove() }
        let jpeg = try media.write("pic.jpg", MediaFolder.jpeg)
        let host = isolatedHost(out.url, media: ["https://cdn.example.com/pic": FixtureMedia(file: jpeg, contentType: "image/png")])
        let result = try await deliver("""
            function didReceive(r, c)
              local file, err = download("https://cdn.example.com/pic")
              assert(file, err)
              c.subtitle = file.type .. " " .. file.mime .. " " .. file.path:match("%.(%a+)$")
              local a = c:attach(file, {identifier = "pic", thumbnailHidden = true})
              local list = c.attachments
              list[1] = nil
              table.insert(list, {identifier = "fake"})
              assert(not pcall(setmetatable, list, {}), "attachments' metatable is locked")
              assert(pcall(function() c.attachments = {} end) == false, "attachments cannot be assigned")
              c.body = a.identifier .. " " .. a.type .. " " .. #c.attachments
            end
            """, host: host)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.content.subtitle == "public.jpeg image/jpeg jpg")
        #expect(result.content.body == "pic public.jpeg 1")
        #expect(result.content.attachments.first?.options.thumbnailHidden == true)
        #expect(result.logs.contains { $0.source == "host" && $0.level == .warn })
        let attached = try #require(result.content.attachments.first)
        #expect(FileManager.default.fileExists(atPath: URL(string: attached.url)!.path))
        #expect(filesLeft(under: out.url).count == 1)
    }

    @Test func failuresComeBackAsNilAndAPrefixedMessage() async throws {
        let media = try MediaFolder()
        let out = try MediaFolder()
        defer { media.remove(); out.remove() }
        let text = try media.write("notes.txt", Array("hello".utf8))
        let big = try media.write("big.png", MediaFolder.png + Array(repeating: 0, count: 20_000))
        let host = isolatedHost(out.url, media: [
            "https://cdn.example.com/gone": FixtureMedia(status: 404),
            "https://cdn.example.com/text": FixtureMedia(file: text),
            "https://cdn.example.com/big.png": FixtureMedia(file: big),
        ])
        let result = try await deliver("""
            function didReceive(r, c)
              local msgs = {}
              for _, u in ipairs{"https://cdn.example.com/gone", "http://cdn.example.com/x", "file:///etc/passwd",
                                 "https://cdn.example.com/unlisted"} do
                local f, err = download(u)
                msgs[#msgs + 1] = err
              end
              local f, err = download("https://cdn.example.com/big.png", {maxBytes = 5000})
              msgs[#msgs + 1] = err
              f, err = download("https://cdn.example.com/text", {kinds = {"image"}})
              msgs[#msgs + 1] = err
              local t = download("https://cdn.example.com/text")
              local a, aerr = c:attach(t)
              msgs[#msgs + 1] = aerr
              local _, perr = c:attach({path = "/etc/hostname"})
              msgs[#msgs + 1] = perr
              c.body = table.concat(msgs, "\\n")
            end
            """, host: host)
        let lines = result.content.body.split(separator: "\n").map(String.init)
        let prefixes = ["http 404", "not allowed", "not allowed", "network", "too large", "unsupported type", "unsupported type", "not allowed"]
        #expect(lines.count == prefixes.count, "\(lines)")
        for (line, prefix) in zip(lines, prefixes) { #expect(line.hasPrefix(prefix), "\(line)") }
        #expect(result.content.attachments.isEmpty)
        #expect(filesLeft(under: out.url).isEmpty)
    }

    @Test func theMediaDirectoryHoldsFilesPathAttachmentsMayName() async throws {
        let media = try MediaFolder(), out = try MediaFolder(), elsewhere = try MediaFolder()
        defer { media.remove(); out.remove(); elsewhere.remove() }
        _ = try media.write("banner.png", MediaFolder.png)
        let outside = try elsewhere.write("other.png", MediaFolder.png)
        let script = """
            function didReceive(r, c)
              local a, aerr = c:attach{path = "banner.png"}
              local b, berr = c:attach{path = "\(outside.path)"}
              local d, derr = c:attach{path = "../\(elsewhere.url.lastPathComponent)/other.png"}
              c.body = tostring(a and a.type) .. "|" .. tostring(berr) .. "|" .. tostring(derr)
            end
            """
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: out.url, offline: true, mediaDirectory: media.url))
        let result = try await deliver(script, host: host)
        let parts = result.content.body.split(separator: "|").map(String.init)
        #expect(parts.first == "public.png", "\(parts)")
        #expect(parts[1].hasPrefix("not allowed:") && parts[1].hasSuffix("is neither a download of this request nor a file of the media directory"), "\(parts)")
        #expect(parts[2].hasPrefix("not allowed:") && parts[2].hasSuffix("leaves the media directory ('..')"), "\(parts)")
        #expect(result.content.attachments.count == 1)
        // Without a media directory the relative path names nothing the script may read.
        let without = try await deliver(script, host: isolatedHost(out.url))
        #expect(without.content.body.hasPrefix("nil|not allowed"), "\(without.content.body)")
    }

    @Test func kindsCapTheSizeAtTheirLargestMaximum() async throws {
        let media = try MediaFolder(), out = try MediaFolder()
        defer { media.remove(); out.remove() }
        // 5,000,001 bytes: over audio's 5 MB, within image's 10 MB.
        let big = try media.write("big.png", MediaFolder.png + Array(repeating: 0, count: 5_000_001 - MediaFolder.png.count))
        let host = isolatedHost(out.url, media: ["https://cdn.example.com/big.png": FixtureMedia(file: big)])
        let result = try await deliver("""
            function didReceive(r, c)
              local _, audio = download("https://cdn.example.com/big.png", {kinds = {"audio"}})
              local _, both = download("https://cdn.example.com/big.png", {kinds = {"audio", "image"}})
              local _, given = download("https://cdn.example.com/big.png", {kinds = {"audio"}, maxBytes = 6000000})
              c.body = tostring(audio) .. "|" .. tostring(both) .. "|" .. tostring(given)
            end
            """, host: host)
        let parts = result.content.body.split(separator: "|").map(String.init)
        #expect(parts.count == 3)
        #expect(parts[0].hasPrefix("too large") && parts[0].contains("5000000"), "\(parts)")
        #expect(parts[1] == "nil", "\(parts)")
        // An explicit maxBytes wins; the PNG then fails for its kind.
        #expect(parts[2].hasPrefix("unsupported type"), "\(parts)")
        let listed = try await deliver("function didReceive(r, c) download('https://cdn.example.com/big.png', {'image'}) end", host: host)
        #expect(listed.reason?.message.contains("download: options are named, not positional") == true, "\(String(describing: listed.reason))")
    }

    @Test func aTimeoutPastAnyDeadlineLeavesTheDownloadToTheDeadline() async throws {
        let media = try MediaFolder()
        let out = try MediaFolder()
        defer { media.remove(); out.remove() }
        let jpeg = try media.write("pic.jpg", MediaFolder.jpeg)
        let host = isolatedHost(out.url, media: ["https://cdn.example.com/pic.jpg": FixtureMedia(file: jpeg)])
        let result = try await deliver("""
            function didReceive(r, c)
              local got = {}
              for _, t in ipairs{math.huge, 1e300, 2^63, 86400 * 365, 5} do
                local f, err = download("https://cdn.example.com/pic.jpg", {timeout = t})
                got[#got + 1] = f and f.type or err
              end
              for _, t in ipairs{0, -1, 0/0, -math.huge} do
                local ok, err = pcall(download, "https://cdn.example.com/pic.jpg", {timeout = t})
                got[#got + 1] = ok and "accepted" or err:match("timeout must be .*")
              end
              c.body = table.concat(got, "\\n")
            end
            """, host: host)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        let lines = result.content.body.split(separator: "\n").map(String.init)
        #expect(lines == Array(repeating: "public.jpeg", count: 5) + Array(repeating: "timeout must be a number of seconds > 0", count: 4))
    }

    @Test func deadlineDuringADownloadDeliversTheBestAttemptOnTime() async throws {
        let media = try MediaFolder()
        let out = try MediaFolder()
        defer { media.remove(); out.remove() }
        let jpeg = try media.write("pic.jpg", MediaFolder.jpeg)
        let host = isolatedHost(out.url, media: ["https://cdn.example.com/slow.jpg": FixtureMedia(file: jpeg, delayMs: 3000)])
        let start = ContinuousClock.now
        let result = try await deliver("""
            function didReceive(r, c)
              c.title = "waiting"
              local f = download("https://cdn.example.com/slow.jpg")
              c.title = "got it"
            end
            function bestAttempt(c, reason)
              local f, err = download("https://cdn.example.com/slow.jpg")
              c.body = reason.kind .. " / " .. tostring(err)
            end
            """, host: host, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .milliseconds(300)))
        let took = ContinuousClock.now - start
        #expect(result.reason?.kind == .time)
        #expect(result.content.title == "waiting")
        #expect(result.content.body.hasPrefix("time / deadline"), "\(result.content.body)")
        #expect(took < .milliseconds(300) + .milliseconds(600), "took \(took)")
        #expect(filesLeft(under: out.url).isEmpty)
    }

    @Test func downloadAllOverlapsSlowAndFast() async throws {
        let media = try MediaFolder()
        let out = try MediaFolder()
        defer { media.remove(); out.remove() }
        let jpeg = try media.write("pic.jpg", MediaFolder.jpeg)
        var table: [String: FixtureMedia] = [:]
        for i in 0..<3 { table["https://cdn.example.com/\(i).jpg"] = FixtureMedia(file: jpeg, delayMs: 800) }
        table["https://cdn.example.com/gone.jpg"] = FixtureMedia(status: 500)
        let host = isolatedHost(out.url, media: table)
        let start = ContinuousClock.now
        let result = try await deliver("""
            function didReceive(r, c)
              local files, errors = downloadAll({"https://cdn.example.com/0.jpg", "https://cdn.example.com/gone.jpg",
                                                 "https://cdn.example.com/1.jpg", "https://cdn.example.com/2.jpg"})
              c.body = string.format("%s %s %s %s", files[1] and files[1].type, errors[2]:match("^http %d+"), files[3] ~= nil, files[4] ~= nil)
              for i = 1, 4 do if files[i] then c:attach(files[i]) end end
            end
            """, host: host)
        let took = ContinuousClock.now - start
        #expect(result.content.body == "public.jpeg http 500 true true", "\(result.content.body)")
        #expect(result.content.attachments.count == 3)
        // One after another would take 2.4 s and two at a time 1.6 s: under that, all three overlap,
        // with most of a download's time to spare for a busy machine.
        #expect(took < .milliseconds(1600), "took \(took): the three 800 ms downloads should overlap")
    }
}
