import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// `locale.best`, `request.locales`, and localized alert keys resolved before the script runs.
@Suite struct LocaleTests {
    /// SPEC: for each preferred language in order, an exact match wins, then the bare language,
    /// then another region of the same language; nil if none. Case and `-`/`_` do not matter.
    @Test(arguments: [
        ("{'en', 'de', 'de-AT'}", "{'de-AT'}", "de-AT"),
        ("{'en', 'de-DE', 'de'}", "{'de-AT'}", "de"),
        ("{'en', 'de-DE'}", "{'de-AT'}", "de-DE"),
        ("{'de-CH', 'de-DE'}", "{'de'}", "de-CH"),
        ("{'fr', 'en'}", "{'de-AT', 'en-GB'}", "en"),
        ("{'de-AT', 'fr-FR'}", "{'fr-CA', 'de-AT'}", "fr-FR"),
        ("{'pt_br', 'pt'}", "{'PT-BR'}", "pt_br"),
        ("{'zh-Hant-TW', 'zh-Hans'}", "{'zh_hant_tw'}", "zh-Hant-TW"),
        ("{'EN'}", "{'en-us'}", "EN"),
    ])
    func bestFollowsTheRule(available: String, preferred: String, best: String) async throws {
        #expect(try await values("return locale.best(\(available), \(preferred))") == [.text(best)])
    }

    @Test func bestIsNilWithoutAMatch() async throws {
        #expect(try await values("return locale.best({'fr', 'es'}, {'de', 'en'}), locale.best({}, {'en'}), locale.best({'en'}, {})")
                == [.nil, .nil, .nil])
    }

    @Test func bestDefaultsToTheRequestsLocales() async throws {
        let host = ScriptHost(configuration: HostConfiguration(locales: ["de-AT", "en"]))
        #expect(try await values("return locale.best({'en', 'de-DE'})", host: host) == [.text("de-DE")])
        var request = try request(app: "com.example.news")
        request.locales = ["fr-FR"]
        #expect(try await values("return locale.best({'en', 'fr'}), locale.best({'en', 'de'})", host: host, request: request) == [.text("fr"), .nil])
        // The default device language is English.
        #expect(try await values("return locale.best({'de', 'en-GB'})") == [.text("en-GB")])
    }

    @Test func bestRaisesForArgumentsThatAreNotLists() async throws {
        #expect(try await raised("return locale.best()")?.contains("bad argument #1 to 'best' (list of strings expected, got no value)") == true)
        #expect(try await raised("return locale.best({'en', 5})")?.contains("bad argument #1 to 'best' (list of strings expected, got table)") == true)
        #expect(try await raised("return locale.best({'en'}, 'en')")?.contains("bad argument #2 to 'best' (list of strings expected, got string)") == true)
    }

    @Test func requestLocales() async throws {
        let show = "local l = request.locales return #l, l[1], l[2]"
        #expect(try await values(show) == [.integer(1), .text("en"), .nil])
        let host = ScriptHost(configuration: HostConfiguration(locales: ["de-DE", "en"]))
        #expect(try await values(show, host: host) == [.integer(2), .text("de-DE"), .text("en")])
        var request = try request(app: "com.example.news")
        request.locales = ["fr-CA"]
        #expect(try await values(show, host: host, request: request) == [.integer(1), .text("fr-CA"), .nil])
        // Told none, the host says English.
        #expect(try await values(show, host: ScriptHost(configuration: HostConfiguration(locales: []))) == [.integer(1), .text("en"), .nil])
        var configuration = HostConfiguration()
        configuration.locales = []
        #expect(try await values(show, host: ScriptHost(configuration: configuration)) == [.integer(1), .text("en"), .nil])
        request.locales = []
        #expect(try await values(show, request: request) == [.integer(1), .text("en"), .nil])
        #expect(try await raised("request.locales[1] = 'de'")?.contains("read-only") == true)
    }
}

/// `loc-key`, `title-loc-key`, `subtitle-loc-key` and their arguments, resolved by the host's
/// strings table before the script runs (`--strings`).
@Suite struct LocalizedAlertDeliveryTests {
    static let strings = [
        "GREETING": "Hello %@", "PHOTOS": "%2$@ sent %1$@ photos", "SUB": "From %@ (100%%)", "TWO": "%@ and %@",
    ]

    func delivered(_ alert: String, strings: [String: String] = strings, script: String = "function didReceive(r, c) end") async throws -> DeliveryResult {
        let host = ScriptHost(configuration: HostConfiguration(strings: strings))
        let payload = try payload(#"{"aps": {"alert": \#(alert), "mutable-content": 1}}"#)
        return try await deliver(script, payload: payload, host: host)
    }

    @Test func keysAndArgumentsResolveBeforeTheScript() async throws {
        let result = try await delivered(
            #"{"title-loc-key": "GREETING", "title-loc-args": ["Ann"], "subtitle-loc-key": "SUB", "subtitle-loc-args": ["Bob"], "loc-key": "PHOTOS", "loc-args": ["3", "Bob"]}"#,
            script: """
                function didReceive(request, content)
                  content.threadIdentifier = request.content.title .. "|" .. content.body
                end
                """)
        #expect(result.outcome == .completed)
        #expect(result.content.title == "Hello Ann")
        #expect(result.content.subtitle == "From Bob (100%)")
        #expect(result.content.body == "Bob sent 3 photos")
        // The script saw the resolved texts, in content and in request.content alike.
        #expect(result.content.threadIdentifier == "Hello Ann|Bob sent 3 photos")
        // The keys stay in userInfo.
        #expect(result.content.userInfo["aps"]?["alert"]?["loc-key"] == "PHOTOS")
        #expect(result.content.userInfo["aps"]?["alert"]?["title-loc-args"] == ["Ann"])
    }

    @Test func aMissingStringIsTheKeyItself() async throws {
        let result = try await delivered(#"{"title": "kept", "loc-key": "NO_SUCH_KEY", "loc-args": ["x"]}"#)
        #expect(result.content.body == "NO_SUCH_KEY")
        #expect(result.content.title == "kept")
    }

    @Test func missingArgumentsAreEmpty() async throws {
        let result = try await delivered(#"{"loc-key": "TWO", "loc-args": ["Ann"]}"#)
        #expect(result.content.body == "Ann and ")
    }

    @Test func withoutStringsNothingIsResolved() async throws {
        let result = try await delivered(#"{"title": "T", "loc-key": "PHOTOS", "loc-args": ["3", "Bob"]}"#, strings: [:])
        #expect(result.content.title == "T")
        #expect(result.content.body == "")
        #expect(result.content.userInfo["aps"]?["alert"]?["loc-key"] == "PHOTOS")
    }

    @Test func aFallbackDeliversTheResolvedOriginal() async throws {
        let result = try await delivered(#"{"loc-key": "GREETING", "loc-args": ["Ann"]}"#, script: "x = 1")
        #expect(result.reason?.kind == .load)
        #expect(result.content.body == "Hello Ann")
    }
}
