import Foundation
import Testing
import NotificationModel

@Suite struct ContentFieldNameTests {
    @Test func namesInSpecOrder() {
        #expect(ContentField.names == [
            "title", "subtitle", "body", "badge", "sound", "categoryIdentifier", "threadIdentifier",
            "targetContentIdentifier", "interruptionLevel", "relevanceScore", "filterCriteria",
            "launchImageName", "summaryArgument", "summaryArgumentCount", "userInfo", "attachments",
        ])
        #expect(ContentField.allCases.filter(\.isOptional) == [.badge, .sound, .targetContentIdentifier, .filterCriteria])
        #expect(ContentField.allCases.filter(\.isReadOnly) == [.attachments])
    }

    @Test(arguments: ["titel", "Title", "badges", "user_info", "", "attachment"])
    func unknownNamesAreNamed(name: String) throws {
        var content = NotificationContent()
        let error = try #require(throws: ContentFieldError.self) { try content.set(name, to: "x") }
        #expect(error.kind == .unknownField)
        #expect(error.field == name)
        #expect(error.message == "content has no field '\(name)'")
        #expect(content.value(of: name) == nil)
    }

    @Test func attachmentsAreReadOnly() throws {
        var content = NotificationContent()
        for value: JSONValue? in [[], nil, [["identifier": "a"]]] {
            let error = try #require(throws: ContentFieldError.self) { try content.set("attachments", to: value) }
            #expect(error.kind == .readOnly)
            #expect(error.message == "attachments is read-only")
        }
        #expect(content.value(of: "attachments") == [])
    }
}

@Suite struct ContentStringFieldTests {
    static let fields = ["title", "subtitle", "body", "categoryIdentifier", "threadIdentifier", "launchImageName", "summaryArgument"]

    @Test(arguments: fields)
    func takesStrings(name: String) throws {
        var content = NotificationContent()
        #expect(content.value(of: name) == "")
        try content.set(name, to: "Héllo 📷")
        #expect(content.value(of: name) == "Héllo 📷")
        try content.set(name, to: "")
        #expect(content.value(of: name) == "")
    }

    @Test(arguments: fields)
    func refusesEverythingElse(name: String) throws {
        var content = NotificationContent()
        try content.set(name, to: "kept")
        for wrong: JSONValue? in [nil, .null, 5, 2.5, true, ["a"], ["k": "v"]] {
            let error = try #require(throws: ContentFieldError.self) { try content.set(name, to: wrong) }
            #expect(error.kind == .invalidValue)
            #expect(error.message == "\(name) must be a string")
        }
        #expect(content.value(of: name) == "kept")
    }

    @Test(arguments: ["targetContentIdentifier", "filterCriteria"])
    func optionalStrings(name: String) throws {
        var content = NotificationContent()
        #expect(content.value(of: name) == nil)
        try content.set(name, to: "x")
        #expect(content.value(of: name) == "x")
        try content.set(name, to: nil)
        #expect(content.value(of: name) == nil)
        try content.set(name, to: "y")
        try content.set(name, to: .null)
        #expect(content.value(of: name) == nil)
        for wrong: JSONValue in [5, false, ["x"]] {
            #expect(message { try content.set(name, to: wrong) } == "\(name) must be a string or nil")
        }
    }
}

@Suite struct ContentNumberFieldTests {
    @Test func badge() throws {
        var content = NotificationContent()
        try content.set("badge", to: 3)
        #expect(content.badge == 3)
        try content.set("badge", to: 0)
        #expect(content.badge == 0)
        try content.set("badge", to: 2.0)
        #expect(content.badge == 2)
        guard case .integer(2)? = content.value(of: "badge") else {
            Issue.record("badge should read back as an integer")
            return
        }
        try content.set("badge", to: nil)
        #expect(content.badge == nil)
        #expect(content.value(of: "badge") == nil)
        try content.set("badge", to: 5)
        try content.set("badge", to: .null)
        #expect(content.badge == nil)
        for wrong: JSONValue in [-1, -0.5, 2.5, "3", true, [3], .number(.nan), .number(.infinity), 1e300] {
            let error = try #require(throws: ContentFieldError.self) { try content.set("badge", to: wrong) }
            #expect(error.message == "badge must be an integer >= 0 or nil")
            #expect(error.field == "badge")
        }
    }

    @Test func summaryArgumentCount() throws {
        var content = NotificationContent()
        #expect(content.value(of: "summaryArgumentCount") == 0)
        try content.set("summaryArgumentCount", to: 4)
        #expect(content.summaryArgumentCount == 4)
        try content.set("summaryArgumentCount", to: 1.0)
        #expect(content.summaryArgumentCount == 1)
        for wrong: JSONValue? in [JSONValue?.none, .null, .integer(-1), 1.5, "2", false] {
            #expect(message { try content.set("summaryArgumentCount", to: wrong) } == "summaryArgumentCount must be an integer >= 0")
        }
    }

    @Test func relevanceScore() throws {
        var content = NotificationContent()
        #expect(content.value(of: "relevanceScore") == 0)
        for score: JSONValue in [0, 1, 0.5, 0.0, 1.0] {
            try content.set("relevanceScore", to: score)
            #expect(content.value(of: "relevanceScore") == score)
        }
        try content.set("relevanceScore", to: 1)
        #expect(content.relevanceScore == 1.0)
        for wrong: JSONValue? in [JSONValue?.none, .null, -0.01, 1.01, .integer(2), "0.5", true, .number(.nan)] {
            #expect(message { try content.set("relevanceScore", to: wrong) } == "relevanceScore must be a number from 0 to 1")
        }
    }

    @Test func interruptionLevel() throws {
        var content = NotificationContent()
        #expect(content.value(of: "interruptionLevel") == "active")
        for level in ["passive", "active", "time-sensitive", "critical"] {
            try content.set("interruptionLevel", to: .string(level))
            #expect(content.value(of: "interruptionLevel") == .string(level))
        }
        #expect(content.interruptionLevel == .critical)
        for wrong: JSONValue? in [nil, .null, "timeSensitive", "ACTIVE", "", 1] {
            #expect(message { try content.set("interruptionLevel", to: wrong) }
                == #"interruptionLevel must be one of "passive", "active", "time-sensitive", "critical""#)
        }
    }
}

@Suite struct ContentSoundFieldTests {
    @Test func soundForms() throws {
        var content = NotificationContent()
        #expect(content.value(of: "sound") == nil)
        try content.set("sound", to: "default")
        #expect(content.sound == .named("default"))
        #expect(content.value(of: "sound") == "default")
        try content.set("sound", to: ["name": "alarm.caf", "critical": true, "volume": 0.5])
        #expect(content.sound == .dictionary(name: "alarm.caf", critical: true, volume: 0.5))
        #expect(content.value(of: "sound") == ["name": "alarm.caf", "critical": true, "volume": 0.5])
        try content.set("sound", to: ["name": "a", "critical": 1, "volume": 1])
        #expect(content.sound == .dictionary(name: "a", critical: true, volume: 1))
        try content.set("sound", to: ["name": "a"])
        #expect(content.sound == .dictionary(name: "a", critical: false, volume: nil))
        #expect(content.value(of: "sound") == ["name": "a", "critical": false])
        try content.set("sound", to: ["name": "a", "volume": 0])
        #expect(content.sound == .dictionary(name: "a", critical: false, volume: 0))
        try content.set("sound", to: nil)
        #expect(content.sound == nil)
        try content.set("sound", to: "x")
        try content.set("sound", to: .null)
        #expect(content.sound == nil)
    }

    @Test func soundRefusals() {
        var content = NotificationContent()
        for wrong: JSONValue in [1, true, ["default"]] {
            #expect(message { try content.set("sound", to: wrong) } == "sound must be nil, a sound name or an object of name, critical, volume")
        }
        #expect(message { try content.set("sound", to: ["critical": true]) } == "sound.name must be a string")
        #expect(message { try content.set("sound", to: ["name": 3]) } == "sound.name must be a string")
        for wrong: JSONValue in [2, "yes", 0.5] {
            #expect(message { try content.set("sound", to: ["name": "a", "critical": wrong]) } == "sound.critical must be a boolean")
        }
        for wrong: JSONValue in [1.5, -0.1, "1", true] {
            #expect(message { try content.set("sound", to: ["name": "a", "volume": wrong]) } == "sound.volume must be a number from 0 to 1")
        }
        #expect(message { try content.set("sound", to: ["name": "a", "vol": 1]) } == "sound has no field 'vol'; it takes name, critical, volume")
        #expect(content.sound == nil)
    }
}

@Suite struct ContentUserInfoFieldTests {
    @Test func userInfoTakesObjects() throws {
        var content = NotificationContent()
        try content.set("userInfo", to: ["aps": ["alert": "x"], "n": [1, 2.5, nil, true]])
        #expect(content.userInfo["n"] == [1, 2.5, nil, true])
        try content.set("userInfo", to: [:])
        #expect(content.userInfo.isEmpty)
        // An empty Lua table has no shape; it arrives as an empty array and means an empty object.
        try content.set("userInfo", to: ["k": 1])
        try content.set("userInfo", to: [])
        #expect(content.userInfo.isEmpty)
        #expect(content.value(of: "userInfo") == [:])
    }

    @Test func userInfoRefusesNonObjects() {
        var content = NotificationContent()
        for wrong: JSONValue? in [nil, .null, "x", 1, true, [1, 2]] {
            #expect(message { try content.set("userInfo", to: wrong) } == "userInfo must be an object with string keys")
        }
    }

    /// An object nested `levels` deep counting itself: `{"k": {"k": ... {}}}`.
    func nested(_ levels: Int, leaf: JSONValue = [:]) -> JSONValue {
        var value = leaf
        for _ in 1..<levels { value = ["k": value] }
        return value
    }

    @Test func userInfoDepthLimit() throws {
        var content = NotificationContent()
        try content.set("userInfo", to: nested(32))
        #expect(JSONValue.object(content.userInfo).depth == 32)
        #expect(message { try content.set("userInfo", to: nested(33)) } == "userInfo is nested more than 32 levels deep")
        // Arrays count as levels too.
        try content.set("userInfo", to: nested(31, leaf: [1]))
        #expect(message { try content.set("userInfo", to: nested(32, leaf: [1])) } == nil)
        #expect(message { try content.set("userInfo", to: nested(32, leaf: [[1]])) } == "userInfo is nested more than 32 levels deep")
        // A scalar at the deepest level adds no level.
        try content.set("userInfo", to: nested(32, leaf: [:]))
    }

    @Test func userInfoNumbersMustBeFinite() {
        var content = NotificationContent()
        #expect(message { try content.set("userInfo", to: ["a": ["b": [1, .number(.nan)]]]) }
            == "userInfo.a.b[1] must be a finite number; JSON has no nan")
        #expect(message { try content.set("userInfo", to: ["x": .number(-.infinity)]) }
            == "userInfo.x must be a finite number; JSON has no -inf")
    }

    @Test func refusedAssignmentLeavesTheFieldAlone() throws {
        var content = NotificationContent()
        try content.set("userInfo", to: ["keep": 1])
        _ = message { try content.set("userInfo", to: 5) }
        #expect(content.userInfo == ["keep": 1])
    }
}
