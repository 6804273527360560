import Foundation
import TestSupport
import Testing
@testable import ScriptTesting

/// A folder of fixture files for one test.
private struct Folder {
    private let folder: TemporaryFolder
    var url: URL { folder.url }

    init(_ files: [String: String]) throws {
        folder = try TemporaryFolder("pushscript-fixtures")
        for (name, text) in files { try folder.write(name, text) }
    }

    func remove() { folder.remove() }

    func run(filter: String? = nil, verbose: Bool = false) async throws -> ([String], FixtureSummary) {
        let folders = try FixtureDiscovery.folders(under: [url.path])
        let lines = LineBox()
        var runner = FixtureRunner(filter: filter)
        runner.verbose = verbose
        let summary = await runner.run(folders) { lines.add($0.report) }
        return (lines.lines, summary)
    }
}

private final class LineBox: @unchecked Sendable {
    private(set) var lines: [String] = []
    func add(_ text: String) { lines.append(contentsOf: text.split(separator: "\n").map(String.init)) }
}

private let script = """
    function didReceive(r, c)
      c.title = "Hi " .. (c.userInfo.name or "?")
      c.badge = store.increment("n")
    end
    """

private func fixture(_ name: String, payload: String = #"{"aps": {"alert": "x", "mutable-content": 1}, "name": "Ann"}"#, expect: String) -> String {
    #"{"name": "\#(name)", "script": "rules.lua", "app": "a", "payload": \#(payload), "expect": \#(expect)}"#
}

@Suite(.serialized) struct FixtureRunnerTests {
    @Test func passesFailsAndClosingLine() async throws {
        let folder = try Folder([
            "rules.lua": script,
            "1.fixture.json": fixture("first", expect: #"{"outcome": "completed", "content": {"title": "Hi Ann", "badge": 1}}"#),
            "2.fixture.json": fixture("second sees the store", expect: #"{"content": {"badge": 2}}"#),
            "3.fixture.json": fixture("wrong title", expect: #"{"content": {"title": "Hello", "attachments": [{"type": "public.jpeg"}]}}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.first == "PASS first")
        #expect(lines.contains("PASS second sees the store"))
        let failAt = try #require(lines.firstIndex(of: "FAIL wrong title"))
        #expect(lines[failAt + 1].hasPrefix("  in ") && lines[failAt + 1].hasSuffix("3.fixture.json"))
        #expect(lines.contains(#"  content.attachments: expected 1 elements [{"type":"public.jpeg"}], actual 0 elements []"#))
        #expect(lines.contains(#"  content.title: expected "Hello", actual "Hi Ann""#))
        #expect(summary == FixtureSummary(passed: 2, failed: 1, malformed: 0))
        #expect(summary.line == "2 passed, 1 failed")
        #expect(summary.exitStatus == 1)
    }

    @Test func refusedPayloadsGiveAnErrorResult() async throws {
        let big = String(repeating: "x", count: 5000)
        let folder = try Folder([
            "rules.lua": script,
            "1.fixture.json": fixture("too large", payload: #"{"aps": {"alert": "\#(big)"}}"#, expect: #"{"error": "payload too large"}"#),
            "2.fixture.json": fixture("not expected", payload: #"{"aps": {"badge": "1"}}"#, expect: #"{"outcome": "completed"}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.first == "PASS too large")
        #expect(lines.contains { $0.hasPrefix("FAIL not expected") })
        #expect(lines.contains { $0.hasPrefix("  outcome: expected \"completed\", actual (missing)") })
        #expect(summary.line == "1 passed, 1 failed")
    }

    @Test func aRefusedPayloadFailsAFixtureThatExpectsNoErrorAndSaysWhy() async throws {
        let folder = try Folder([
            "rules.lua": script,
            "1.fixture.json": fixture("expects nothing", payload: #"{"aps": {"badge": "1"}}"#, expect: "{}"),
            "2.fixture.json": fixture("expects a title", payload: #"{"aps": {"badge": "1"}}"#, expect: #"{"content": {"title": "Hi Ann"}}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.filter { $0.hasPrefix("FAIL ") }.count == 2)
        #expect(lines.filter { $0 == #"  error: expected none, actual "aps.badge must be an integer >= 0""# }.count == 2)
        #expect(lines.contains(#"  content: expected {"title":"Hi Ann"}, actual (missing)"#))
        #expect(summary.line == "0 passed, 2 failed")
    }

    @Test func malformedFixturesAreNamedWithTheProblem() async throws {
        let folder = try Folder([
            "rules.lua": script,
            "1.fixture.json": "{ not json",
            "2.fixture.json": #"{"script": "rules.lua", "payload": {"aps": {}}}"#,
            "3.fixture.json": #"{"script": "missing.lua", "payload": {"aps": {}}, "expect": {}}"#,
            "4.fixture.json": #"{"script": "rules.lua", "payload": {"aps": {}}, "expect": {}, "expected": {}}"#,
            "5.fixture.json": fixture("fine", expect: #"{"outcome": "completed"}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.count == 5)
        // Said once, where and what, in the words of every JSON reader of the host.
        #expect(lines[0].hasPrefix("ERROR ") && lines[0].hasSuffix("1.fixture.json: not valid JSON: expected a key in quotes, found character 'n' around character 2"))
        #expect(lines[1].contains("2.fixture.json: 'expect' is missing"))
        #expect(lines[2].contains("3.fixture.json: script") && lines[2].contains("missing.lua cannot be read"))
        #expect(lines[3].contains("4.fixture.json: unknown key 'expected'"))
        #expect(lines[4] == "PASS fine")
        #expect(summary.exitStatus == 2)
        #expect(summary.line == "1 passed, 4 failed")
    }

    @Test func aPayloadWhereAFixtureIsExpectedIsNamedAsOne() async throws {
        let folder = try Folder(["push.fixture.json": #"{"aps": {"alert": "x", "mutable-content": 1}, "name": "Ann"}"#])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("ERROR ") && lines[0].contains("push.fixture.json: this looks like a payload (it has 'aps'), not a fixture;"))
        #expect(lines[0].contains("pushscript run SCRIPT"))
        #expect(!lines[0].contains("unknown key"))
        #expect(summary.exitStatus == 2)
        #expect(summary.line == "0 passed, 1 failed")
    }

    @Test func absurdLimitsAreMalformedInsteadOfWrapping() async throws {
        func limits(_ entry: String) -> String {
            #"{"script": "rules.lua", "payload": {"aps": {}}, "limits": \#(entry), "expect": {}}"#
        }
        let folder = try Folder([
            "rules.lua": script,
            "1.fixture.json": limits(#"{"timeMs": 9223372036854775807}"#),
            "2.fixture.json": limits(#"{"memoryMB": 17592186044416}"#),
            "3.fixture.json": limits(#"{"memoryMB": 1e30}"#),
            "4.fixture.json": limits(#"{"cpuMs": 0}"#),
            "5.fixture.json": limits(#"{"cpuMs": 3600000, "memoryMB": 65536, "timeMs": 86400000}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.count == 5)
        #expect(lines[0].contains("1.fixture.json: 'limits.timeMs' must be a whole number of milliseconds from 1 to 86400000 (a day)"))
        #expect(lines[1].contains("2.fixture.json: 'limits.memoryMB' must be a whole number of MiB from 1 to 65536 (64 GiB)"))
        #expect(lines[2].contains("3.fixture.json: 'limits.memoryMB' must be a whole number of MiB"))
        #expect(lines[3].contains("4.fixture.json: 'limits.cpuMs' must be a whole number of milliseconds from 1 to 3600000"))
        #expect(lines[4] == "PASS 5.fixture.json")
        #expect(summary == FixtureSummary(passed: 1, failed: 0, malformed: 4))
    }

    @Test func mediaEntriesOfTheWrongTypeAreMalformed() async throws {
        func media(_ entry: String) -> String {
            #"{"script": "rules.lua", "payload": {"aps": {}}, "media": {"https://a.example/x.jpg": \#(entry)}, "expect": {}}"#
        }
        let folder = try Folder([
            "rules.lua": script,
            "pic.jpg": "not really a picture",
            "1.fixture.json": media(#"{"file": "pic.jpg", "status": "404"}"#),
            "2.fixture.json": media(#"{"file": "pic.jpg", "delayMs": "2000"}"#),
            "3.fixture.json": media(#"{"file": "pic.jpg", "contentType": 1}"#),
            "4.fixture.json": media(#"{"file": "pic.jpg", "statsu": 404}"#),
            "5.fixture.json": media(#"{"status": 404}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.count == 5)
        #expect(lines[0].contains("1.fixture.json: 'media' entry for https://a.example/x.jpg: 'status' must be an HTTP status code"))
        #expect(lines[1].contains("2.fixture.json: 'media' entry for https://a.example/x.jpg: 'delayMs' must be a whole number"))
        #expect(lines[2].contains("3.fixture.json: 'media' entry for https://a.example/x.jpg: 'contentType' must be a string"))
        #expect(lines[3].contains("4.fixture.json: 'media' entry for https://a.example/x.jpg: unknown key 'statsu'"))
        #expect(lines[4] == "PASS 5.fixture.json")
        #expect(summary == FixtureSummary(passed: 1, failed: 0, malformed: 4))
        #expect(summary.exitStatus == 2)
    }

    @Test func aMissingMediaFileIsAMalformedFixture() async throws {
        let folder = try Folder([
            "rules.lua": script,
            "1.fixture.json": #"{"script": "rules.lua", "payload": {"aps": {}}, "media": {"https://a.example/x.jpg": "media/typo.jpg"}, "expect": {}}"#,
            "2.fixture.json": #"{"script": "rules.lua", "payload": {"aps": {}}, "media": {"https://a.example/x.jpg": {"file": "media/typo.jpg", "status": 404}}, "expect": {}}"#,
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        let missing = folder.url.appendingPathComponent("media/typo.jpg").standardizedFileURL.path
        #expect(lines.count == 2)
        for (index, line) in lines.enumerated() {
            #expect(line.hasPrefix("ERROR ") && line.contains("\(index + 1).fixture.json: media file \(missing) for https://a.example/x.jpg cannot be read; fix 'media'"), "\(line)")
        }
        #expect(summary.exitStatus == 2)
    }

    @Test func anApnsPayloadFileNamesTheAppUnlessTheFixtureDoes() async throws {
        let appScript = #"function didReceive(r, c) c.title = tostring(r.app) end"#
        let apns = #"{"Simulator Target Bundle": "com.from.file", "aps": {"alert": "x", "mutable-content": 1}}"#
        let folder = try Folder([
            "rules.lua": appScript,
            "push.apns": apns,
            "Push.APNS": apns,
            "1.fixture.json": #"{"name": "file", "script": "rules.lua", "payload": "push.apns", "expect": {"content": {"title": "com.from.file", "userInfo": {"aps": {"alert": "x"}}}}}"#,
            "2.fixture.json": #"{"name": "upper case", "script": "rules.lua", "payload": "Push.APNS", "expect": {"content": {"title": "com.from.file"}}}"#,
            "3.fixture.json": #"{"name": "fixture wins", "script": "rules.lua", "app": "com.fixture", "payload": "push.apns", "expect": {"content": {"title": "com.fixture"}}}"#,
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines == ["PASS file", "PASS upper case", "PASS fixture wins"])
        #expect(summary.exitStatus == 0)
    }

    @Test func filterKeepsMatchingNamesAndPaths() async throws {
        let folder = try Folder([
            "rules.lua": script,
            "a/1-picture.fixture.json": fixture("with picture", expect: #"{"outcome": "completed"}"#),
            "a/rules.lua": script,
            "b/2-text.fixture.json": fixture("text only", expect: #"{"outcome": "completed"}"#),
            "b/rules.lua": script,
        ])
        defer { folder.remove() }
        #expect(try await folder.run(filter: "picture").0 == ["PASS with picture"])
        #expect(try await folder.run(filter: "text only").0 == ["PASS text only"])
        #expect(try await folder.run(filter: "b/2").0 == ["PASS text only"])
    }

    @Test func fixturesBeforeAKeptOneStillRunUnreported() async throws {
        let folder = try Folder([
            "rules.lua": script,
            "1.fixture.json": fixture("first", expect: #"{"content": {"badge": 1}}"#),
            "2.fixture.json": fixture("unrelated and failing", expect: #"{"content": {"title": "nope"}}"#),
            "3.fixture.json": fixture("third sees the store", expect: #"{"content": {"badge": 3}}"#),
            "4.fixture.json": fixture("after the last kept one", expect: #"{"content": {"badge": 4}}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run(filter: "third")
        #expect(lines == ["PASS third sees the store"])
        #expect(summary == FixtureSummary(passed: 1, failed: 0, malformed: 0))
        #expect(try await folder.run(filter: "nothing matches") == ([], FixtureSummary()))
    }

    @Test func foldersDoNotShareTheStore() async throws {
        let folder = try Folder([
            "a/rules.lua": script, "b/rules.lua": script,
            "a/1.fixture.json": fixture("a", expect: #"{"content": {"badge": 1}}"#),
            "b/1.fixture.json": fixture("b", expect: #"{"content": {"badge": 1}}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines == ["PASS a", "PASS b"])
        #expect(summary.failed == 0)
    }

    @Test func aFailShowsTheReasonWithTheScriptsPathBeforeTheDifferences() async throws {
        let folder = try Folder([
            "rules.lua": "function didReceive(r, c)\n  error(\"no sender in payload\")\nend\n",
            "1.fixture.json": fixture("raises", expect: #"{"outcome": "completed"}"#),
            "2.fixture.json": fixture("expects the fallback", expect: #"{"outcome": "fallback", "reason": {"kind": "error"}}"#),
        ])
        defer { folder.remove() }
        let (lines, _) = try await folder.run()
        let failAt = try #require(lines.firstIndex(of: "FAIL raises"))
        let script = folder.url.appendingPathComponent("rules.lua").standardizedFileURL.path
        #expect(lines[failAt + 2] == "  reason: error: \(script):2: no sender in payload")
        #expect(lines[failAt + 3] == #"  outcome: expected "completed", actual "fallback""#)
        #expect(lines.contains("PASS expects the fallback"))
    }

    @Test func reasonMessagesNameTheScriptByItsPath() {
        let script = URL(fileURLWithPath: "/x/y/rules.lua")
        #expect(FixtureOutcome.withPath("rules.lua:12: boom", script: script) == "/x/y/rules.lua:12: boom")
        #expect(FixtureOutcome.withPath("rules.lua did not load: rules.lua:3: '=' expected", script: script)
                == "rules.lua did not load: /x/y/rules.lua:3: '=' expected")
        #expect(FixtureOutcome.withPath("myrules.lua:3: x", script: script) == "myrules.lua:3: x")
        #expect(FixtureOutcome.withPath("the script used more than its 100 ms of CPU", script: script) == "the script used more than its 100 ms of CPU")
    }

    @Test func categoriesAndStringsMayBeFilesAndAllowHttpReachesThePolicy() async throws {
        let folder = try Folder([
            "rules.lua": """
                function didReceive(r, c)
                  local _, err = download("http://cdn.example.com/a.jpg")
                  c.subtitle = tostring(err)
                  c.categoryIdentifier = categories.has("reply") and "reply" or "none"
                end
                """,
            "common/categories.json": #"[{"identifier": "reply", "actions": [{"identifier": "r", "title": "Reply"}]}]"#,
            "common/de.json": #"{"GREETING": "Hallo %@"}"#,
            "1.fixture.json": #"""
                {"name": "files and http", "script": "rules.lua", "categories": "common/categories.json", "strings": "common/de.json",
                 "allowHttp": ["cdn.example.com"],
                 "payload": {"aps": {"alert": {"loc-key": "GREETING", "loc-args": ["Ann"]}, "mutable-content": 1}},
                 "expect": {"content": {"title": "", "body": "Hallo Ann", "categoryIdentifier": "reply", "subtitle": "network: no media answer for 'http://cdn.example.com/a.jpg' and no network to ask"}}}
                """#,
            "2.fixture.json": #"""
                {"name": "without allowHttp", "script": "rules.lua", "strings": {"GREETING": "Hi %@"},
                 "payload": {"aps": {"alert": {"loc-key": "GREETING", "loc-args": ["Bo"]}, "mutable-content": 1}},
                 "expect": {"content": {"body": "Hi Bo", "subtitle": "not allowed: plain http to 'cdn.example.com' is not allowed; use https or allow http for that host"}}}
                """#,
            "3.fixture.json": #"{"script": "rules.lua", "categories": "nowhere.json", "payload": {"aps": {}}, "expect": {}}"#,
            "4.fixture.json": #"{"script": "rules.lua", "allowHttp": "cdn.example.com", "payload": {"aps": {}}, "expect": {}}"#,
        ])
        defer { folder.remove() }
        let (lines, _) = try await folder.run()
        #expect(lines.first == "PASS files and http", "\(lines)")
        #expect(lines.contains("PASS without allowHttp"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ERROR ") && $0.contains("3.fixture.json: categories file ") && $0.hasSuffix("nowhere.json cannot be read; fix 'categories'") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("ERROR ") && $0.contains("4.fixture.json: 'allowHttp' must be a list of host names") }, "\(lines)")
    }

    @Test func noRegisteredCategoryCanBeExpected() async throws {
        let folder = try Folder([
            "rules.lua": """
                function didReceive(r, c)
                  if c.userInfo.buttons then
                    categories.register{identifier = "dyn", actions = {{identifier = "open", title = "Open", icon = {system = "arrow.up.right"}}}}
                  end
                end
                """,
            "1.fixture.json": fixture("none registered", expect: #"{"registeredCategories": [], "categories": []}"#),
            "2.fixture.json": fixture("one registered", payload: #"{"aps": {"alert": "x", "mutable-content": 1}, "buttons": 1}"#,
                                      expect: #"{"registeredCategories": ["dyn"], "categories": [{"identifier": "dyn", "actions": [{"title": "Open", "icon": {"system": "arrow.up.right"}}]}]}"#),
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines == ["PASS none registered", "PASS one registered"])
        #expect(summary.failed == 0)
    }

    @Test func anIdentifierSetsTheRequestsApnsID() async throws {
        let folder = try Folder([
            "rules.lua": "function didReceive(r, c) c.title = r.identifier end\n",
            "1.fixture.json": #"{"name": "given", "script": "rules.lua", "identifier": "5C0D2E5A-1B2C-4D3E-8F90-ABCDEF012345", "payload": {"aps": {"alert": "x", "mutable-content": 1}}, "expect": {"content": {"title": "5C0D2E5A-1B2C-4D3E-8F90-ABCDEF012345"}}}"#,
            "2.fixture.json": #"{"name": "not given", "script": "rules.lua", "payload": {"aps": {"alert": "x", "mutable-content": 1}}, "expect": {"content": {"title": "5C0D2E5A-1B2C-4D3E-8F90-ABCDEF012345"}}}"#,
            "3.fixture.json": #"{"name": "empty", "script": "rules.lua", "identifier": "", "payload": {"aps": {"alert": "x", "mutable-content": 1}}, "expect": {}}"#,
            "4.fixture.json": #"{"name": "a number", "script": "rules.lua", "identifier": 7, "payload": {"aps": {"alert": "x", "mutable-content": 1}}, "expect": {}}"#,
        ])
        defer { folder.remove() }
        let (lines, summary) = try await folder.run()
        #expect(lines.first == "PASS given")
        // without one, a new UUID
        #expect(lines.contains("FAIL not given"))
        #expect(lines.contains { $0.contains("3.fixture.json: 'identifier' must not be empty") })
        #expect(lines.contains { $0.contains("4.fixture.json: 'identifier' must be a string") })
        #expect(summary == FixtureSummary(passed: 1, failed: 1, malformed: 2))
    }

    @Test func verboseShowsAFailingFixturesWholeResultWithItsLogs() async throws {
        let folder = try Folder([
            "rules.lua": "function didReceive(r, c)\n  log.warn(\"no picture: %s\", \"http 404\")\n  c.title = \"Hi\"\nend\n",
            "1.fixture.json": fixture("passes", expect: #"{"content": {"title": "Hi"}}"#),
            "2.fixture.json": fixture("fails", expect: #"{"content": {"title": "Hello"}}"#),
        ])
        defer { folder.remove() }
        let (plain, _) = try await folder.run()
        #expect(!plain.contains("  result:"))
        let (lines, _) = try await folder.run(verbose: true)
        #expect(lines.first == "PASS passes")
        #expect(lines.filter { $0 == "  result:" }.count == 1)
        let at = try #require(lines.firstIndex(of: "  result:"))
        #expect(lines[at - 1] == #"  content.title: expected "Hello", actual "Hi""#)
        #expect(lines[at + 1] == "    {")
        #expect(lines[at + 2] == #"      "outcome": "completed","#)
        #expect(lines.contains(#"          "message": "no picture: http 404""#))
        #expect(lines.contains { $0.hasPrefix(#"        "title": "Hi""#) })
        #expect(lines.last == "    }")
    }
}
