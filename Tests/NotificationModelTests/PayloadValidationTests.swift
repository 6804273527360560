import Foundation
import Testing
import NotificationModel

@Suite struct PayloadStructureTests {
    @Test func invalidJSONIsRefused() throws {
        let error = try #require(throws: PayloadError.self) { _ = try Payload(jsonData: Data("{\"aps\": ".utf8)) }
        #expect(error.kind == .invalidJSON)
        #expect(error.message.hasPrefix("payload is not valid JSON: "))
        #expect(error.message.hasSuffix("; give the APNs payload as one JSON object"))
        #expect(!error.message.contains("\n"))
    }

    @Test(arguments: [
        ("[1]", "payload is not a JSON object: it is an array"),
        ("\"aps\"", "payload is not a JSON object: it is a string"),
        ("3", "payload is not a JSON object: it is an integer"),
        ("2.5", "payload is not a JSON object: it is a number"),
        ("true", "payload is not a JSON object: it is a boolean"),
        ("null", "payload is not a JSON object: it is null"),
    ])
    func nonObjectsAreRefused(text: String, expected: String) throws {
        let error = try #require(throws: PayloadError.self) { _ = try Payload(jsonData: Data(text.utf8)) }
        #expect(error.kind == .notAnObject)
        #expect(error.message == expected)
    }

    @Test func nonObjectValueIsRefused() {
        #expect(message { try Payload(value: [1, 2]) } == "payload is not a JSON object: it is an array")
    }

    @Test func missingAPSIsRefused() throws {
        let error = try #require(throws: PayloadError.self) { _ = try Payload(jsonData: Data(#"{"alert": "hi"}"#.utf8)) }
        #expect(error.kind == .missingAPS)
        #expect(error.message == "aps is missing; a payload needs an aps dictionary")
    }

    @Test(arguments: [#""hi""#, "[]", "1", "null", "true"])
    func apsThatIsNotADictionaryIsRefused(aps: String) throws {
        let error = try #require(throws: PayloadError.self) {
            _ = try Payload(jsonData: Data(#"{"aps": \#(aps)}"#.utf8))
        }
        #expect(error.kind == .missingAPS)
        #expect(error.message == "aps must be a dictionary")
    }

    @Test func emptyAPSIsAccepted() throws {
        let payload = try Payload(value: ["aps": [:]])
        #expect(payload.aps.isEmpty)
    }

    @Test func nonFiniteValuesGivenDirectlyAreRefused() {
        #expect(message { try Payload(value: ["aps": [:], "x": .number(.nan)]) }
            == "payload is not valid JSON: cannot write nan as JSON at x; JSON numbers must be finite")
    }
}

/// Every known `aps` key: values it takes and values refused with the message naming it.
@Suite struct APSKeyTypeTests {
    func check(_ aps: JSONValue) throws(PayloadError) {
        _ = try Payload(value: ["aps": aps])
    }

    func refusal(_ aps: JSONValue) -> String? {
        do {
            try check(aps)
            return nil
        } catch {
            #expect(error.kind == .invalidValue)
            return error.message
        }
    }

    static let stringKeyNames = [
        "thread-id", "category", "target-content-id", "filter-criteria", "event", "attributes-type",
    ]
    static let integerKeyNames = ["content-available", "mutable-content", "timestamp", "stale-date", "dismissal-date"]
    static let dictionaryKeyNames = ["content-state", "attributes"]

    @Test(arguments: stringKeyNames)
    func stringKeys(key: String) throws {
        try check([key: "value"])
        try check([key: ""])
        for wrong: JSONValue in [1, 1.5, true, nil, ["a"], ["k": "v"]] {
            #expect(refusal([key: wrong]) == "aps.\(key) must be a string")
        }
    }

    @Test(arguments: integerKeyNames)
    func integerKeys(key: String) throws {
        try check([key: 1])
        try check([key: 0])
        try check([key: 1_718_200_000])
        try check([key: 2.0])
        for wrong: JSONValue in ["1", 1.5, true, nil, [1], [:]] {
            #expect(refusal([key: wrong]) == "aps.\(key) must be an integer")
        }
    }

    @Test(arguments: dictionaryKeyNames)
    func dictionaryKeys(key: String) throws {
        try check([key: [:]])
        try check([key: ["score": 3, "nested": ["a": [1]]]])
        for wrong: JSONValue in ["x", 1, true, nil, []] {
            #expect(refusal([key: wrong]) == "aps.\(key) must be a dictionary")
        }
    }

    @Test func badge() throws {
        try check(["badge": 0])
        try check(["badge": 12])
        try check(["badge": 3.0])
        for wrong: JSONValue in ["1", -1, 1.5, true, nil, [1]] {
            #expect(refusal(["badge": wrong]) == "aps.badge must be an integer >= 0")
        }
    }

    @Test func alert() throws {
        try check(["alert": "Hello"])
        try check(["alert": [:]])
        try check(["alert": [
            "title": "t", "subtitle": "s", "body": "b", "launch-image": "l.png",
            "title-loc-key": "T", "subtitle-loc-key": "S", "loc-key": "B",
            "title-loc-args": ["a"], "subtitle-loc-args": [], "loc-args": ["x", "y"],
            "summary-arg": "Anna", "summary-arg-count": 2, "unknown-key": 5,
        ]])
        for wrong: JSONValue in [1, true, nil, ["x"]] {
            #expect(refusal(["alert": wrong]) == "aps.alert must be a string or a dictionary")
        }
    }

    @Test(arguments: ["title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key", "summary-arg"])
    func alertStringKeys(key: String) {
        for wrong: JSONValue in [1, true, nil, ["x"], [:]] {
            #expect(refusal(["alert": [key: wrong]]) == "aps.alert.\(key) must be a string")
        }
    }

    @Test(arguments: ["title-loc-args", "subtitle-loc-args", "loc-args"])
    func alertArgumentKeys(key: String) {
        for wrong: JSONValue in ["x", 1, [1], ["a", 2], ["a", nil], [["a"]], [:]] {
            #expect(refusal(["alert": [key: wrong]]) == "aps.alert.\(key) must be an array of strings")
        }
    }

    @Test func summaryArgumentCount() throws {
        try check(["alert": ["summary-arg-count": 0]])
        for wrong: JSONValue in ["2", 1.5, true, nil] {
            #expect(refusal(["alert": ["summary-arg-count": wrong]]) == "aps.alert.summary-arg-count must be an integer")
        }
    }

    @Test func sound() throws {
        try check(["sound": "default"])
        try check(["sound": ["name": "alarm.caf"]])
        try check(["sound": ["critical": 1, "name": "default", "volume": 1.0]])
        try check(["sound": ["critical": 0, "name": "x", "volume": 0]])
        try check(["sound": ["critical": 1, "name": "x", "volume": 0.25, "extra": true]])
        for wrong: JSONValue in [1, true, nil, ["default"]] {
            #expect(refusal(["sound": wrong]) == "aps.sound must be a string or a dictionary")
        }
    }

    @Test func soundDictionaryMembers() {
        #expect(refusal(["sound": ["critical": 1]]) == "aps.sound.name must be a string")
        #expect(refusal(["sound": ["name": 5]]) == "aps.sound.name must be a string")
        for wrong: JSONValue in [2, -1, true, "1", 0.5] {
            #expect(refusal(["sound": ["name": "x", "critical": wrong]]) == "aps.sound.critical must be 0 or 1")
        }
        for wrong: JSONValue in [1.5, -0.1, 2, "0.5", true] {
            #expect(refusal(["sound": ["name": "x", "volume": wrong]]) == "aps.sound.volume must be a number from 0 to 1")
        }
    }

    @Test func interruptionLevel() throws {
        for level in ["passive", "active", "time-sensitive", "critical"] {
            try check(["interruption-level": .string(level)])
        }
        for wrong: JSONValue in ["timeSensitive", "Active", "", 1, nil] {
            #expect(refusal(["interruption-level": wrong])
                == #"aps.interruption-level must be one of "passive", "active", "time-sensitive", "critical""#)
        }
    }

    @Test func relevanceScore() throws {
        for score: JSONValue in [0, 1, 0.5, 0.0, 1.0] {
            try check(["relevance-score": score])
        }
        for wrong: JSONValue in [1.01, -0.5, 2, "0.5", true, nil] {
            #expect(refusal(["relevance-score": wrong]) == "aps.relevance-score must be a number from 0 to 1")
        }
    }

    @Test func firstProblemInKeyOrderIsReported() {
        #expect(refusal(["sound": 1, "badge": "1"]) == "aps.badge must be an integer >= 0")
    }
}
