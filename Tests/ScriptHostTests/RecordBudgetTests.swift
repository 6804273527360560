import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// What a request records for its result (posts, categories, attachments) stays within a
/// budget tied to its memory limit; a refusal says so in one line.
@Suite(.serialized) struct RecordBudgetTests {
    static let limits = ScriptLimits(cpuTime: .seconds(5), memoryBytes: 8 << 20, time: .seconds(10))
    static let budget = limits.recordBytes

    func run(_ source: String, host: ScriptHost = ScriptHost(configuration: HostConfiguration(allowPostHosts: ["receipts.example.com"], offline: true))) async throws -> DeliveryResult {
        try await deliver(source, host: host, limits: Self.limits)
    }

    @Test func theBudgetIsAQuarterOfTheMemoryLimit() {
        #expect(Self.budget == 2 << 20)
        #expect(ScriptLimits(cpuTime: .seconds(1), memoryBytes: 1 << 20, time: .seconds(1)).recordBytes == 256 << 10)
        #expect(ScriptLimits(cpuTime: .seconds(1), memoryBytes: 1 << 16, time: .seconds(1)).recordBytes == 64 << 10)
    }

    @Test func postsPastTheBudgetAreRefusedUnsent() async throws {
        let result = try await run("""
            function didReceive(r, c)
              local body = string.rep("x", 65536)
              for n = 1, 1000 do
                local ok, err = http.post("https://receipts.example.com/r", body)
                if not ok and not err:find("^network") then c.body = n .. ": " .. err return end
              end
              c.body = "never refused"
            end
            """)
        #expect(result.outcome == .completed)
        #expect(result.content.body.hasPrefix("32: too much recorded: the post would take this request past the 2 MiB its result may record"), "\(result.content.body)")
        #expect(result.posts.count == 31)
        let recorded = result.posts.reduce(0) { $0 + $1.body.utf8.count }
        #expect(recorded <= Self.budget)
    }

    @Test func oneCategoryRegisteredAgainAndAgainIsOneEntryAndTheLastWins() async throws {
        let result = try await run("""
            function didReceive(r, c)
              for n = 1, 20000 do
                categories.register({identifier = "same", actions = {{identifier = "a", title = "title " .. n}}})
              end
              categories.register({identifier = "other", actions = {}})
            end
            """)
        #expect(result.outcome == .completed, "\(String(describing: result.reason))")
        #expect(result.registeredCategories == ["same", "other"])
        #expect(result.categories.count == 2)
        #expect(result.categories.first?.actions.first?.title == "title 20000")
    }

    @Test func manyCategoriesPastTheBudgetAreRefused() async throws {
        let result = try await run("""
            function didReceive(r, c)
              local title = string.rep("t", 4000)
              for n = 1, 10000 do
                local ok, err = pcall(categories.register, {identifier = "id" .. n, actions = {{identifier = "a", title = title}, {identifier = "b", title = title}}})
                if not ok then c.body = n .. ": " .. err return end
              end
            end
            """)
        #expect(result.content.body.contains("categories.register: too much recorded: registering 'id"), "\(result.content.body)")
        let kept = result.categories.reduce(0) { $0 + ($1.jsonValue.compactByteCount ?? 0) }
        #expect(kept <= Self.budget)
        #expect(result.registeredCategories.count == result.categories.count)
    }

    @Test func attachmentsPastTheBudgetAreRefusedAndRemovingThemFreesIt() async throws {
        let media = try MediaFolder(), out = try MediaFolder()
        defer { media.remove(); out.remove() }
        _ = try media.write("pic.jpg", MediaFolder.jpeg)
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: out.url, offline: true, mediaDirectory: media.url))
        let result = try await run("""
            function didReceive(r, c)
              local id = string.rep("i", 60000)
              local refused
              for n = 1, 1000 do
                local a, err = c:attach({path = "pic.jpg"}, {identifier = id .. n})
                if not a then refused = n .. ": " .. err break end
              end
              c:removeAttachments()
              local again = c:attach({path = "pic.jpg"}, {identifier = "after"})
              c.body = refused .. "|" .. tostring(again and again.identifier)
            end
            """, host: host)
        let parts = result.content.body.split(separator: "|").map(String.init)
        #expect(parts.first?.contains("too much recorded: the attachment would take this request past the 2 MiB") == true, "\(parts)")
        #expect(parts.last == "after")
        #expect(result.content.attachments.map(\.identifier) == ["after"])
    }
}
