import FixtureTransports
import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// SPEC section 1's `request` and `content` sentences, one test each.
@Suite struct ContentAPITests {
    @Test func requestIsReadOnlyAndRawsetChangesNothingTheHostSees() async throws {
        let request = NotificationRequest(payload: try originalPayload(), app: "com.example.app", identifier: "apns-1", locales: ["de-DE", "en"])
        let result = await ScriptHost().deliver(request, script: .script(Script(name: "rules.lua", source: """
            function didReceive(r, c)
              local refused = {}
              for _, f in ipairs{
                function() r.identifier = "x" end, function() r.content.title = "x" end,
                function() r.locales[1] = "fr" end, function() setmetatable(r, {}) end,
                function() setmetatable(r.content, {}) end,
              } do refused[#refused + 1] = tostring(not pcall(f)) end
              rawset(r.content, "title", "changed")
              rawset(r, "identifier", "changed")
              c.subtitle = table.concat(refused, " ")
              c.body = table.concat({r.app, #r.locales, r.locales[1], tostring(r.content.badge), #r.content.attachments,
                                     r.content.interruptionLevel, r.content.userInfo.aps.alert.body}, " ")
            end
            """)))
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.content.subtitle == "true true true true true")
        #expect(result.content.body == "com.example.app 2 de-DE nil 0 active original")
        #expect(result.content.title == "original")
    }

    @Test func integralFloatsAreIntegersAndNothingIsCoercedFromStrings() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              c.badge = 2.0
              c.summaryArgumentCount = 3.0
              local refused = {}
              for _, f in ipairs{function() c.badge = "3" end, function() c.title = 5 end,
                                 function() c.badge = 2.5 end, function() c.relevanceScore = "0.5" end} do
                local ok, err = pcall(f)
                refused[#refused + 1] = err:match(": (.*)$")
              end
              c.body = table.concat(refused, "|") .. "|" .. math.type(c.badge)
            end
            """)
        #expect(result.content.badge == 2)
        #expect(result.content.summaryArgumentCount == 3)
        #expect(result.content.body == "badge must be an integer >= 0 or nil|title must be a string|badge must be an integer >= 0 or nil|relevanceScore must be a number from 0 to 1|integer")
    }

    /// A string written to a text field is checked as any value is: invalid UTF-8 and an
    /// interruption level that is not one are refused with the field's message, nil clears an
    /// optional field, and a read gives what was written.
    @Test func stringsWrittenToTextFieldsAreCheckedByTheFieldsRules() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              local refused = {}
              for _, f in ipairs{function() c.title = "\\255" end, function() c.interruptionLevel = "loud" end,
                                 function() c.threadIdentifier = {} end} do
                local ok, err = pcall(f)
                refused[#refused + 1] = err:match(": (.*)$")
              end
              c.targetContentIdentifier = "scene"
              c.subtitle = c.targetContentIdentifier .. "/" .. c.interruptionLevel
              c.targetContentIdentifier = nil
              c.interruptionLevel = "time-sensitive"
              c.body = table.concat(refused, "|") .. "|" .. tostring(c.targetContentIdentifier)
            end
            """)
        #expect(result.content.body == "title must be valid UTF-8|interruptionLevel must be one of \"passive\", \"active\", \"time-sensitive\", \"critical\"|threadIdentifier must be a string|nil")
        #expect(result.content.subtitle == "scene/active")
        #expect(result.content.interruptionLevel == .timeSensitive)
        #expect(result.content.targetContentIdentifier == nil)
    }

    @Test func suppressKeepsTheContentForPeopleAndTests() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              c.title = "hidden"
              c:suppress()
            end
            """)
        #expect(result.outcome == .completed)
        #expect(result.suppressed)
        #expect(result.content.title == "hidden")
        guard case .object(let json) = result.jsonValue else { Issue.record("no object"); return }
        #expect(json["suppressed"] == .bool(true))
        let plain = try await deliver("function didReceive(r, c) end")
        guard case .object(let plainJSON) = plain.jsonValue else { Issue.record("no object"); return }
        #expect(plainJSON["suppressed"] == nil && plainJSON["reason"] == nil)
    }

    @Test func removeAttachmentsEmptiesTheListAndTheFilesGo() async throws {
        let media = try MediaFolder()
        let out = try MediaFolder()
        defer { media.remove(); out.remove() }
        let jpeg = try media.write("a.jpg", MediaFolder.jpeg)
        let png = try media.write("b.png", MediaFolder.png)
        let host = isolatedHost(out.url, media: [
            "https://cdn.example.com/a.jpg": FixtureMedia(file: jpeg), "https://cdn.example.com/b.png": FixtureMedia(file: png),
        ])
        let result = try await deliver("""
            function didReceive(r, c)
              c:attach(download("https://cdn.example.com/a.jpg"), {identifier = "first"})
              c:removeAttachments()
              local n = #c.attachments
              c:attach(download("https://cdn.example.com/b.png"), {identifier = "second"})
              c:attach({path = "\(jpeg.path)"}, {identifier = "third"})
              c.body = n .. " " .. #c.attachments
            end
            """, host: host)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.content.body == "0 2")
        #expect(result.content.attachments.map(\.identifier) == ["second", "third"])
        #expect(result.content.attachments.map(\.type) == ["public.png", "public.jpeg"])
        #expect(filesLeft(under: out.url).count == 2, "the removed attachment's file is gone")
    }

    @Test func aMediaFileIsCopiedOncePerRequestHoweverOftenItIsAttached() async throws {
        // Attaching one media file in a loop copied it each time: 170 MB written per request
        // for a 9.9 MB file.
        let media = try MediaFolder()
        let out = try MediaFolder()
        defer { media.remove(); out.remove() }
        let jpeg = try media.write("a.jpg", MediaFolder.jpeg)
        let host = isolatedHost(out.url, media: ["https://cdn.example.com/a.jpg": FixtureMedia(file: jpeg)])
        let result = try await deliver("""
            function didReceive(r, c)
              for i = 1, 20 do c:attach({path = "\(jpeg.path)"}, {identifier = "a" .. i}) end
            end
            """, host: host)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.content.attachments.count == 20)
        #expect(Set(result.content.attachments.map(\.url)).count == 1)
        #expect(filesLeft(under: out.url).count == 1, "one copy for twenty attachments")
    }
}
