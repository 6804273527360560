import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// A category from its JSON shape (test data).
func category(_ json: String) throws -> NotificationCategory {
    try NotificationCategory(json: JSONValue(jsonString: json))
}

/// `categories.has/get/list/register/localized` and where registrations live.
@Suite struct CategoriesTests {
    @Test func registerHasGetAndList() async throws {
        let host = ScriptHost()
        #expect(try await values("""
            categories.register{identifier = "reply", actions = {
              {identifier = "answer", title = "Answer", options = {"foreground"}, textInput = {buttonTitle = "Send", placeholder = "Message"}},
              {identifier = "delete", title = "Delete", options = {"destructive", "authenticationRequired"}},
            }, options = {"customDismissAction"}}
            categories.register{identifier = "plain"}
            local c = categories.get("reply")
            local list = categories.list()
            return categories.has("reply"), categories.has("nope"), categories.get("nope"), c.identifier, #c.actions,
              c.actions[1].textInput.buttonTitle, c.actions[2].options[2], c.options[1], #list, list[1], list[2]
            """, host: host) == [
                .bool(true), .bool(false), .nil, .text("reply"), .integer(2), .text("Send"), .text("authenticationRequired"),
                .text("customDismissAction"), .integer(2), .text("plain"), .text("reply"),
            ])
        // Registered categories outlive the request; `get` gives the shape `register` takes.
        #expect(try await values("""
            local c = categories.get("reply")
            categories.register(c)
            c.identifier = "copy"
            categories.register(c)
            return categories.get("copy").actions[1].textInput.placeholder, #categories.get("plain").actions
            """, host: host) == [.text("Message"), .integer(0)])
    }

    @Test func badCategoriesRaiseErrors() async throws {
        #expect(try await raised("categories.register{identifier = ''}")?.contains("categories.register: identifier must be a non-empty string") == true)
        #expect(try await raised("categories.register{identifier = 'x', options = {'loud'}}")?.contains("categories.register: options: unknown option 'loud'") == true)
        #expect(try await raised("categories.register{identifier = 'x', color = 'red'}")?.contains("categories.register:") == true)
        #expect(try await raised("categories.register('x')")?.contains("categories.register:") == true)
        #expect(try await raised("return categories.has(1)")?.contains("bad argument #1 to 'has' (string expected, got number)") == true)
        #expect(try await raised("return categories.localized('news')")?.contains("bad argument #2 to 'localized' (string expected, got no value)") == true)
        #expect(try await raised("return categories.localized('news', 'de', 5)")?.contains("bad argument #3 to 'localized' (string expected, got number)") == true)
    }

    @Test func iconsIntentsAndTheOtherCategoryFieldsRoundTrip() async throws {
        let evaluation = try await evaluate("""
            categories.register{identifier = "chat", intentIdentifiers = {"INSendMessageIntentIdentifier"},
              hiddenPreviewsBodyPlaceholder = "%u new messages", categorySummaryFormat = "%u more from %@",
              options = {"allowAnnouncement"}, actions = {
              {identifier = "like", title = "Like", icon = {system = "hand.thumbsup"}},
              {identifier = "reply", title = "Reply", icon = {template = "reply-icon"}, textInput = {buttonTitle = "Send", placeholder = ""}},
            }}
            local c = categories.get("chat")
            return c.actions[1].icon.system, c.actions[2].icon.template, c.intentIdentifiers[1], c.hiddenPreviewsBodyPlaceholder,
              c.categorySummaryFormat, c.options[1]
            """)
        #expect(evaluation.values == [.text("hand.thumbsup"), .text("reply-icon"), .text("INSendMessageIntentIdentifier"),
                                      .text("%u new messages"), .text("%u more from %@"), .text("allowAnnouncement")])
        // The result carries the category whole.
        let json = evaluation.result.jsonValue
        #expect(json["registeredCategories"] == ["chat"])
        #expect(json["categories"]?[0]?["actions"]?[0] == ["identifier": "like", "title": "Like", "options": [], "icon": ["system": "hand.thumbsup"]])
        #expect(json["categories"]?[0]?["intentIdentifiers"] == ["INSendMessageIntentIdentifier"])
    }

    @Test func aResultSaysWhenNothingWasRegistered() async throws {
        let json = try await evaluate("return 1").result.jsonValue
        #expect(json["registeredCategories"] == [])
        #expect(json["categories"] == [])
    }

    @Test func registerErrorsCountActionsFromOne() async throws {
        #expect(try await raised("""
            categories.register{identifier = 'x', actions = {{identifier = 'a', title = 'A'}, {identifier = 'b', title = 'B', options = {'loud'}}}}
            """)?.contains("categories.register: actions[2].options: unknown option 'loud'") == true)
        #expect(try await raised("categories.register{identifier = 'x', actions = {{identifier = 'a', title = 'A', icon = {emoji = 'x'}}}}")?
            .contains("categories.register: actions[1].icon has no field 'emoji'; it must be {system = NAME} or {template = NAME}") == true)
        #expect(try await raised("categories.register{identifier = 'x', actions = {{identifier = 'a', title = 'A', icon = {system = ''}}}}")?
            .contains("categories.register: actions[1].icon.system must be a non-empty string") == true)
        #expect(try await raised("categories.register{identifier = 'x', intentIdentifiers = {'a', 5}}")?
            .contains("categories.register: intentIdentifiers[2] must be a non-empty string") == true)
    }

    @Test func aCategoryOver16KiBIsRefused() async throws {
        #expect(try await raised("categories.register{identifier = 'x', actions = {{identifier = 'a', title = string.rep('A', 17000)}}}")?
            .contains("categories.register: the category is too large: more than 16384 bytes") == true)
        #expect(try await values("categories.register{identifier = 'x', actions = {{identifier = 'a', title = string.rep('A', 16000)}}} return categories.has('x')")
                == [.bool(true)])
    }

    @Test func removeDropsRegisteredCategoriesOnly() async throws {
        var req = try request(app: "com.example.news")
        req.categories = [try category(#"{"identifier": "declared"}"#)]
        #expect(try await values("""
            categories.register{identifier = "dyn"}
            local removed = categories.remove("dyn")
            local again, why = categories.remove("dyn")
            local declared, because = categories.remove("declared")
            return removed, categories.has("dyn"), again, why, declared, because, categories.has("declared")
            """, request: req) == [
                .bool(true), .bool(false), .bool(false), .text("no registered category 'dyn'"),
                .bool(false), .text("'declared' is declared by the app; only registered categories can be removed"), .bool(true),
            ])
    }

    @Test func removeWorksOnTheStateFile() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try await values("categories.register{identifier = 'a'} categories.register{identifier = 'b'}", host: persistentHost(dir), request: request(app: "x"))
        #expect(try await values("return categories.remove('a')", host: persistentHost(dir), request: request(app: "x")) == [.bool(true)])
        let json = try JSONValue(jsonData: Data(contentsOf: dir.appendingPathComponent("x.categories.json")))
        #expect(json["registered"]?.arrayValue?.map { $0["identifier"]?.stringValue ?? "" } == ["b"])
    }

    @Test func pruningTheOldestIsLogged() async throws {
        let evaluation = try await evaluate("for i = 1, 130 do categories.register{identifier = 'dyn' .. i} end return #categories.list()")
        #expect(evaluation.values == [.integer(128)])
        let pruned = evaluation.result.logs.filter { $0.source == "host" && $0.message.contains("was removed, the oldest of 128 registered categories") }
        #expect(pruned.map(\.message).map { $0.hasPrefix("categories: 'dyn1'") || $0.hasPrefix("categories: 'dyn2'") } == [true, true])
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let persisted = try await evaluate("for i = 1, 129 do categories.register{identifier = 'dyn' .. i} end", host: persistentHost(dir), request: request(app: "x"))
        #expect(persisted.result.logs.filter { $0.message.hasPrefix("categories: 'dyn1' was removed") }.count == 1)
    }

    /// SPEC's localized category rule, branch by branch.
    @Test(arguments: [
        // (registered, call, identifier, found)
        (["news_de-AT", "news_de", "news_en", "news"], "'news', 'de-AT'", "news_de-AT", true),
        (["news_de", "news_en", "news"], "'news', 'de-AT'", "news_de", true),
        (["news_de", "news_en"], "'news', 'de_AT'", "news_de", true),
        (["news_en", "news"], "'news', 'fr-FR'", "news_en", true),
        (["news_en"], "'news', 'fr'", "news_en", true),
        (["news_es", "news_en"], "'news', 'fr-FR', 'es'", "news_es", true),
        (["news_en", "news"], "'news', 'fr-FR', 'es'", "news", true),
        (["news_en"], "'news', 'fr-FR', 'es'", "news", false),
        (["news"], "'news', 'fr-FR'", "news", true),
        ([], "'news', 'fr-FR'", "news", false),
        (["news_de-at", "news_en"], "'news', 'de-AT'", "news_en", true),
        (["news_pt-BR", "news_pt"], "'news', 'pt-BR'", "news_pt-BR", true),
    ] as [([String], String, String, Bool)])
    func localizedFollowsTheRule(registered: [String], call: String, identifier: String, found: Bool) async throws {
        let register = registered.map { "categories.register{identifier = '\($0)'}" }.joined(separator: " ")
        #expect(try await values("\(register) return categories.localized(\(call))") == [.text(identifier), .bool(found)])
    }

    @Test func declaredCategoriesCountForLocalizedAndAreNeverDropped() async throws {
        let host = ScriptHost(configuration: HostConfiguration(categories: [try category(#"{"identifier": "news_fr"}"#)]))
        var req = try request(app: "com.example.news")
        req.categories = [try category(#"{"identifier": "alerts", "actions": [{"identifier": "ok", "title": "OK"}]}"#)]
        #expect(try await values("""
            for i = 1, 130 do categories.register{identifier = "dyn" .. i} end
            local list = categories.list()
            return categories.localized("news", "fr-CA"), categories.has("alerts"), categories.has("dyn1"), categories.has("dyn2"),
              categories.has("dyn3"), categories.has("dyn130"), #list
            """, host: host, request: req) == [.text("news_fr"), .bool(true), .bool(false), .bool(false), .bool(true), .bool(true), .integer(130)])
    }

    @Test func registeringADeclaredIdentifierReplacesItAndKeepsItDeclared() async throws {
        var req = try request(app: "com.example.news")
        req.categories = [try category(#"{"identifier": "alerts"}"#)]
        #expect(try await values("""
            categories.register{identifier = "alerts", actions = {{identifier = "ok", title = "OK"}}}
            for i = 1, 130 do categories.register{identifier = "dyn" .. i} end
            return #categories.get("alerts").actions
            """, request: req) == [.integer(1)])
    }

    @Test func categoriesArePerApp() async throws {
        let host = ScriptHost()
        _ = try await values("categories.register{identifier = 'mine'}", host: host, request: request(app: "com.example.news"))
        #expect(try await values("return categories.has('mine')", host: host, request: request(app: "com.example.shop")) == [.bool(false)])
        #expect(try await values("return categories.has('mine')", host: host, request: request(app: "com.example.news")) == [.bool(true)])
    }

    @Test func aStateFolderKeepsRegistrationsButNotDeclarations() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = HostConfiguration(categories: [try category(#"{"identifier": "declared"}"#)])
        config.stateDirectory = dir
        _ = try await values("""
            categories.register{identifier = 'reply', actions = {{identifier = 'answer', title = 'Answer', options = {'foreground'}}}}
            """, host: ScriptHost(configuration: config), request: request(app: "com.example.news"))
        let file = dir.appendingPathComponent("com.example.news.categories.json")
        let json = try JSONValue(jsonData: Data(contentsOf: file))
        #expect(json["registered"]?.arrayValue?.count == 1)
        #expect(json["registered"]?[0]?["identifier"] == "reply")
        // A new host (a new process) sees the registration; the declaration was its own.
        #expect(try await values("return categories.has('reply'), categories.get('reply').actions[1].options[1], categories.has('declared')",
                                 host: persistentHost(dir), request: request(app: "com.example.news"))
                == [.bool(true), .text("foreground"), .bool(false)])
    }

    @Test func theStateFolderKeepsTheNewest128() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = HostConfiguration(categories: [try category(#"{"identifier": "declared"}"#)])
        config.stateDirectory = dir
        _ = try await values("for i = 1, 130 do categories.register{identifier = 'dyn' .. i} end",
                             host: ScriptHost(configuration: config), request: request(app: "com.example.news"))
        let json = try JSONValue(jsonData: Data(contentsOf: dir.appendingPathComponent("com.example.news.categories.json")))
        #expect(json["registered"]?.arrayValue?.map { $0["identifier"]?.stringValue ?? "" } == (3...130).map { "dyn\($0)" })
        #expect(try await values("return #categories.list(), categories.has('dyn2'), categories.has('dyn3'), categories.has('declared')",
                                 host: ScriptHost(configuration: config), request: request(app: "com.example.news"))
                == [.integer(129), .bool(false), .bool(true), .bool(true)])
    }

    @Test func aHostSeesRegistrationsAnotherMadeAfterItRead() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = persistentHost(dir), second = persistentHost(dir)
        _ = try await values("categories.register{identifier = 'a'}", host: first, request: request(app: "x"))
        #expect(try await values("return categories.has('a')", host: second, request: request(app: "x")) == [.bool(true)])
        _ = try await values("categories.register{identifier = 'b'}", host: second, request: request(app: "x"))
        _ = try await values("categories.register{identifier = 'c'}", host: first, request: request(app: "x"))
        let expected: [Shown] = [.text("a"), .text("b"), .text("c"), .nil]
        #expect(try await values("local l = categories.list() return l[1], l[2], l[3], l[4]", host: first, request: request(app: "x")) == expected)
        #expect(try await values("local l = categories.list() return l[1], l[2], l[3], l[4]", host: second, request: request(app: "x")) == expected)
    }

    @Test func aCorruptCategoriesFileIsReportedAndSetAside() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("x.categories.json")
        try Data(#"{"registered": [{"identifier": ""}]}"#.utf8).write(to: file)
        let evaluation = try await evaluate("return categories.has('a')", host: persistentHost(dir), request: request(app: "x"))
        #expect(evaluation.values == [.bool(false)])
        #expect(evaluation.result.logs.contains { $0.source == "host" && $0.level == .warn && $0.message.contains("the categories file \(file.path) is corrupt (registered[0]:") })
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("x.categories.json.corrupt-") }
        #expect(aside.count == 1)
    }

    @Test func processesSharingAStateFolderLoseNoRegistration() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state", isDirectory: true)
        let source = """
            function didReceive(request, content)
              for i = 1, 10 do categories.register{identifier = request.identifier .. "-" .. i} end
            end
            """
        // Four processes and four requests of this one at the same time.
        let (runs, results, host) = try await runAlongsideProcesses(source, name: "register.lua", in: dir, state: state)
        let request = try request(app: "com.example.news")
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        #expect(results.allSatisfy { $0.outcome == .completed })
        let json = try JSONValue(jsonData: Data(contentsOf: state.appendingPathComponent("com.example.news.categories.json")))
        #expect(json["registered"]?.arrayValue?.count == 80)
        #expect(try await values("return #categories.list()", host: host, request: request) == [.integer(80)])
    }
}
