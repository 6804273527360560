import Foundation
import Testing
import NotificationModel

@Suite struct ContentJSONTests {
    @Test func emptyContentShowsEveryFieldWithItsDefault() throws {
        let text = try NotificationContent().jsonString()
        #expect(text == #"{"title":"","subtitle":"","body":"","badge":null,"sound":null,"categoryIdentifier":"","#
            + #""threadIdentifier":"","targetContentIdentifier":null,"interruptionLevel":"active","relevanceScore":0.0,"#
            + #""filterCriteria":null,"launchImageName":"","summaryArgument":"","summaryArgumentCount":0,"#
            + #""userInfo":{},"attachments":[]}"#)
    }

    @Test func eachFieldsLiteralNameIsItsName() {
        for field in ContentField.allCases {
            #expect("\(field.literalName)" == field.rawValue)
        }
    }

    @Test func everyFieldIsPresent() throws {
        let json = try JSONValue(jsonString: NotificationContent().jsonString())
        #expect(json.objectValue?.keys.sorted() == ContentField.names.sorted())
        #expect(json == NotificationContent().jsonValue)
    }

    @Test func specExampleContent() throws {
        let payload = try Payload(value: [
            "aps": ["alert": ["title": "Super!", "body": "checkout my pic"], "badge": 1, "sound": "default",
                    "category": "myNotificationCategory", "mutable-content": 1],
        ])
        var content = NotificationContent(payload: payload)
        content.attach(try NotificationAttachment(
            identifier: "pic.jpg", type: "public.jpeg", url: "file:///tmp/pic.jpg", size: 48213))
        let json = content.jsonValue
        #expect(json["title"] == "Super!")
        #expect(json["subtitle"] == "")
        #expect(json["body"] == "checkout my pic")
        #expect(json["badge"] == 1)
        #expect(json["sound"] == "default")
        #expect(json["categoryIdentifier"] == "myNotificationCategory")
        #expect(json["targetContentIdentifier"] == .null)
        #expect(json["userInfo"] == .object(payload.userInfo))
        #expect(json["attachments"] == [
            ["identifier": "pic.jpg", "type": "public.jpeg", "url": "file:///tmp/pic.jpg", "size": 48213],
        ])
        let text = try content.jsonString()
        #expect(text.hasPrefix(#"{"title":"Super!","subtitle":"","body":"checkout my pic","badge":1,"sound":"default","#))
        #expect(text.hasSuffix(#""userInfo":{"aps":{"alert":{"body":"checkout my pic","title":"Super!"},"badge":1,"#
            + #""category":"myNotificationCategory","mutable-content":1,"sound":"default"}},"#
            + #""attachments":[{"identifier":"pic.jpg","type":"public.jpeg","url":"file:///tmp/pic.jpg","size":48213}]}"#))
    }

    @Test func attachmentsInTheOrderAttached() throws {
        var content = NotificationContent()
        for name in ["c", "a", "b"] {
            content.attach(try NotificationAttachment(identifier: name, type: "public.png", url: "file:///\(name).png", size: 1))
        }
        #expect(content.value(of: .attachments)?.arrayValue?.compactMap { $0["identifier"]?.stringValue } == ["c", "a", "b"])
        content.removeAllAttachments()
        #expect(content.attachments.isEmpty)
        #expect(content.jsonValue["attachments"] == [])
    }

    @Test func soundDictionaryIsWrittenInItsOrder() throws {
        var content = NotificationContent()
        content.sound = .dictionary(name: "siren", critical: true, volume: 0.8)
        let text = try content.jsonString()
        #expect(text.contains(#""sound":{"name":"siren","critical":true,"volume":0.8}"#))
    }

    @Test func numbersKeepTheirKinds() throws {
        var content = NotificationContent()
        try content.set("badge", to: 2.0)
        try content.set("relevanceScore", to: 1)
        let text = try content.jsonString()
        #expect(text.contains(#""badge":2,"#))
        #expect(text.contains(#""relevanceScore":1.0,"#))
        #expect(text.contains(#""summaryArgumentCount":0,"#))
    }

    @Test func everySetValueReadsBack() throws {
        var content = NotificationContent()
        let values: [(String, JSONValue)] = [
            ("title", "t"), ("subtitle", "s"), ("body", "b"), ("badge", 4), ("sound", "ping.caf"),
            ("categoryIdentifier", "c"), ("threadIdentifier", "th"), ("targetContentIdentifier", "tc"),
            ("interruptionLevel", "passive"), ("relevanceScore", 0.3), ("filterCriteria", "f"),
            ("launchImageName", "l"), ("summaryArgument", "sa"), ("summaryArgumentCount", 2), ("userInfo", ["u": 1]),
        ]
        for (name, value) in values {
            try content.set(name, to: value)
        }
        for (name, value) in values {
            #expect(content.value(of: name) == value, "\(name)")
            #expect(content.jsonValue[name] == value, "\(name)")
        }
    }
}
