import Foundation
import Testing
import NotificationModel

@Suite struct LocalizedFormatTests {
    @Test func sequentialArguments() {
        #expect(LocalizedAlert.format("%@ sent %@ a photo", arguments: ["Anna", "Ben"]) == "Anna sent Ben a photo")
    }

    @Test func positionalArguments() {
        #expect(LocalizedAlert.format("%2$@ hat %1$@ ein Foto geschickt", arguments: ["Ben", "Anna"])
            == "Anna hat Ben ein Foto geschickt")
        #expect(LocalizedAlert.format("%1$@ and %1$@", arguments: ["x"]) == "x and x")
        #expect(LocalizedAlert.format("%10$@", arguments: (1...10).map(String.init)) == "10")
    }

    @Test func percentEscapes() {
        #expect(LocalizedAlert.format("100%% sure, %@", arguments: ["Anna"]) == "100% sure, Anna")
        #expect(LocalizedAlert.format("%%@", arguments: ["x"]) == "%@")
    }

    @Test func missingArgumentsAreEmpty() {
        #expect(LocalizedAlert.format("%@ and %@", arguments: ["one"]) == "one and ")
        #expect(LocalizedAlert.format("%3$@!", arguments: ["a"]) == "!")
    }

    @Test func otherSequencesAreKept() {
        #expect(LocalizedAlert.format("%d items, 50% off, %0$@, %", arguments: ["x"]) == "%d items, 50% off, %0$@, %")
        #expect(LocalizedAlert.format("%1$d", arguments: ["x"]) == "%1$d")
        #expect(LocalizedAlert.format("no format", arguments: ["x"]) == "no format")
        #expect(LocalizedAlert.format("", arguments: []) == "")
    }

    @Test func argumentsAreNotFormattedAgain() {
        #expect(LocalizedAlert.format("%@ %@", arguments: ["%@", "b"]) == "%@ b")
    }

    @Test func unicodeAroundSpecifiers() {
        #expect(LocalizedAlert.format("📷 %@ – %@é", arguments: ["Zoë", "日本"]) == "📷 Zoë – 日本é")
    }
}

@Suite struct LocalizedAlertTests {
    static let strings = [
        "GREETING_TITLE": "Hello %@",
        "GREETING_SUBTITLE": "from %@",
        "GREETING_BODY": "%2$@ sent you %1$@ photos",
    ]

    @Test func readsTheKeysOfAnAlert() throws {
        let alert: JSONValue = [
            "title-loc-key": "T", "title-loc-args": ["a"], "subtitle-loc-key": "S", "subtitle-loc-args": [],
            "loc-key": "B", "loc-args": ["x", "y"], "title": "plain",
        ]
        let localized = try #require(LocalizedAlert(alert: alert))
        #expect(localized == LocalizedAlert(
            titleKey: "T", titleArguments: ["a"], subtitleKey: "S", subtitleArguments: [], bodyKey: "B", bodyArguments: ["x", "y"]))
        #expect(LocalizedAlert(alert: ["title": "plain", "loc-args": ["x"]]) == nil)
        #expect(LocalizedAlert(alert: "plain text") == nil)
    }

    @Test func resolvesEachPart() throws {
        let localized = LocalizedAlert(
            titleKey: "GREETING_TITLE", titleArguments: ["Anna"],
            subtitleKey: "GREETING_SUBTITLE", subtitleArguments: ["Paris"],
            bodyKey: "GREETING_BODY", bodyArguments: ["3", "Ben"]
        )
        let texts = localized.resolved(strings: Self.strings)
        #expect(texts.title == "Hello Anna")
        #expect(texts.subtitle == "from Paris")
        #expect(texts.body == "Ben sent you 3 photos")
    }

    @Test func missingKeyFallsBackToTheKeyItself() {
        let localized = LocalizedAlert(bodyKey: "Unknown %@ key", bodyArguments: ["x"])
        #expect(localized.resolved(strings: [:]).body == "Unknown x key")
        #expect(localized.resolved(strings: [:]).title == nil)
    }

    @Test func contentTakesTheLocalizedTexts() throws {
        let payload = try Payload(value: ["aps": [
            "alert": ["title": "Fallback title", "subtitle": "kept", "loc-key": "GREETING_BODY", "loc-args": ["2", "Ben"],
                      "title-loc-key": "GREETING_TITLE", "title-loc-args": ["Anna"]],
            "mutable-content": 1,
        ]])
        var content = NotificationContent(payload: payload)
        #expect(content.title == "Fallback title")
        content.applyLocalizedAlert(strings: Self.strings)
        #expect(content.title == "Hello Anna")
        #expect(content.subtitle == "kept")
        #expect(content.body == "Ben sent you 2 photos")
        // The keys stay in userInfo.
        #expect(content.userInfo["aps"]?["alert"]?["loc-key"] == "GREETING_BODY")
    }

    @Test func contentWithoutLocalizedKeysIsUntouched() throws {
        var content = NotificationContent(payload: try Fixtures.payload("onesignal"))
        let before = content
        content.applyLocalizedAlert(strings: Self.strings)
        #expect(content == before)
        var plain = NotificationContent(payload: try Payload(value: ["aps": ["alert": "Hi"]]))
        plain.applyLocalizedAlert(strings: ["Hi": "Salut"])
        #expect(plain.body == "Hi")
    }

    @Test func nonStringArgumentsAreRefusedByThePayload() {
        #expect(message { try Payload(value: ["aps": ["alert": ["loc-key": "K", "loc-args": ["a", 1]]]]) }
            == "aps.alert.loc-args must be an array of strings")
    }

    @Test func stringsTable() throws {
        #expect(try LocalizedAlert.stringsTable(json: ["A": "a", "B": "%@"]) == ["A": "a", "B": "%@"])
        #expect(try LocalizedAlert.stringsTable(json: [:]) == [:])
        #expect(message { try LocalizedAlert.stringsTable(json: ["A": "a", "N": 5]) } == "strings table: 'N' must be a string")
        #expect(message { try LocalizedAlert.stringsTable(json: ["a"]) } == "a strings table must be a JSON object of strings, not an array")
    }
}
