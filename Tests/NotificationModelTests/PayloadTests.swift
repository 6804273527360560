import Foundation
import Testing
import NotificationModel

@Suite struct PayloadTests {
    @Test(arguments: Fixtures.providers)
    func everyProviderPayloadIsAccepted(name: String) throws {
        let payload = try Fixtures.payload(name)
        #expect(payload.isMutableContent)
        #expect(payload.warnings.isEmpty)
        #expect(payload.appBundleID == nil)
        #expect(payload.userInfo["aps"] != nil)
        #expect(payload.compactSize > 0)
        #expect(payload.compactSize < (try Fixtures.data(name)).count)
    }

    @Test func userInfoIsTheWholePayload() throws {
        let payload = try Fixtures.payload("onesignal")
        #expect(payload.userInfo["custom"]?["a"]?["campaign"] == "weekend-sale")
        #expect(payload.userInfo["buttons"]?[1]?["n"] == "Remind me later")
        #expect(payload.aps["thread-id"] == "promotions")
        #expect(payload.jsonValue == .object(payload.userInfo))
    }

    @Test func unknownAPSKeysAreKept() throws {
        let payload = try Fixtures.payload("pushwoosh")
        #expect(payload.aps["pw_badge"] == "+1")
        let custom = try Payload(value: ["aps": ["mutable-content": 1, "x-custom": [1, 2], "alert": ["x": 5]]])
        #expect(custom.aps["x-custom"] == [1, 2])
        #expect(custom.aps["alert"]?["x"] == 5)
    }

    @Test func compactSizeIsTheCompactUTF8JSON() throws {
        let payload = try Payload(jsonData: Data(#"{ "aps" : { "alert" : "h\u00e9" } }"#.utf8))
        // {"aps":{"alert":"hé"}} is 22 characters, 23 bytes (é takes two).
        #expect(payload.compactSize == 23)
    }

    @Test func missingMutableContentIsAWarningNotARefusal() throws {
        let without = try Payload(value: ["aps": ["alert": "hi"]])
        #expect(!without.isMutableContent)
        #expect(without.warnings == [Payload.missingMutableContentMessage])
        #expect(without.warnings[0].hasPrefix("aps.mutable-content is not 1"))
        let zero = try Payload(value: ["aps": ["alert": "hi", "mutable-content": 0]])
        #expect(zero.warnings.count == 1)
        let float = try Payload(value: ["aps": ["mutable-content": 1.0]])
        #expect(float.isMutableContent)
        #expect(float.warnings.isEmpty)
    }
}

@Suite struct PayloadSizeTests {
    /// A payload whose compact JSON is exactly `size` bytes.
    func payload(ofSize size: Int) throws -> Data {
        let empty: JSONValue = ["aps": ["mutable-content": 1], "p": ""]
        let base = try empty.jsonData().count
        let value: JSONValue = ["aps": ["mutable-content": 1], "p": .string(String(repeating: "x", count: size - base))]
        let data = try value.jsonData()
        #expect(data.count == size)
        return data
    }

    @Test func exactly4096BytesIsAccepted() throws {
        let payload = try Payload(jsonData: payload(ofSize: 4096))
        #expect(payload.compactSize == 4096)
    }

    @Test func payload4097BytesIsRefused() throws {
        let data = try payload(ofSize: 4097)
        #expect(throws: PayloadError(.tooLarge, "payload too large: 4097 bytes, APNs allows 4096")) {
            _ = try Payload(jsonData: data)
        }
    }

    @Test func sizeCountsCompactJSONNotTheFileAsWritten() throws {
        // Indentation does not count: the same payload pretty-printed is far over 4096 bytes.
        var members: [String: JSONValue] = ["aps": ["mutable-content": 1]]
        for index in 0..<200 { members["k\(index)"] = [1] }
        let pretty = try JSONValue.object(members).jsonData(prettyPrinted: true)
        #expect(pretty.count > 4096)
        let payload = try Payload(jsonData: pretty)
        #expect(payload.compactSize <= 4096)
    }

    @Test func aRepeatedKeyCountsWithAllItsBytes() throws {
        // A parser keeps one of the five "pad" members: measured after parsing, 5,095 bytes as
        // sent looked like 2,068.
        let pad = String(repeating: "x", count: 1000)
        var text = #"{"aps":{"alert":"Hi","mutable-content":1}"#
        for _ in 0..<5 { text += #","pad":"\#(pad)""# }
        text += "}"
        let sent = text.utf8.count
        #expect(sent > 4096)
        #expect(message { try Payload(jsonData: Data(text.utf8)) } == "payload too large: \(sent) bytes, APNs allows 4096")
        // whitespace between tokens still does not count
        let spaced = text.replacingOccurrences(of: ",", with: ",\n    ")
        #expect(message { try Payload(jsonData: Data(spaced.utf8)) } == "payload too large: \(sent) bytes, APNs allows 4096")
    }

    /// The size as sent of the member `name` of `text`, measured as it is read.
    func sentSize(ofMember name: String, in text: String) throws -> Int? {
        var builder = JSONValue.Builder(measuring: name)
        _ = try Array(text.utf8).withUnsafeBufferPointer { bytes in
            try JSONScanner.read(bytes, into: &builder, maximumDepth: JSONValue.maximumDepth)
        }
        return builder.sentSize
    }

    @Test func theSentSizeOfAMemberIsMeasuredOnItsText() throws {
        let line = #"{"id": 1, "payload": {"a": "x,}", "a": [1, {"b": 2}]}, "app": "x"}"#
        #expect(try sentSize(ofMember: "payload", in: line) == #"{"a":"x,}","a":[1,{"b":2}]}"#.utf8.count)
        #expect(try sentSize(ofMember: "app", in: line) == 3)
        #expect(try sentSize(ofMember: "missing", in: line) == nil)
        #expect(try sentSize(ofMember: "payload", in: "[1]") == nil)
        #expect(try sentSize(ofMember: "payload", in: #"{"payload": {"a": 1}, "payload": {"a": 1, "b": "long"}}"#) == #"{"a":1,"b":"long"}"#.utf8.count)
        #expect(message { try Payload(value: ["aps": [:]], sentSize: 5000) } == "payload too large: 5000 bytes, APNs allows 4096")
    }

    @Test func sizeOfMultibyteText() throws {
        let value: JSONValue = ["aps": ["alert": .string(String(repeating: "😀", count: 1020))]]
        #expect(message { try Payload(value: value) } == "payload too large: 4100 bytes, APNs allows 4096")
    }

    @Test func tooLargeMessageGivesTheSize() throws {
        let value: JSONValue = ["aps": ["mutable-content": 1], "p": .string(String(repeating: "x", count: 4976))]
        let text = message { try Payload(value: value) }
        #expect(text == "payload too large: 5012 bytes, APNs allows 4096")
    }
}

@Suite struct APNSFileTests {
    @Test func simulatorTargetBundleNamesTheAppAndIsRemoved() throws {
        let text = #"{"Simulator Target Bundle": "com.example.news", "aps": {"alert": "Hi", "mutable-content": 1}}"#
        let payload = try Payload(apnsFileData: Data(text.utf8))
        #expect(payload.appBundleID == "com.example.news")
        #expect(payload.userInfo["Simulator Target Bundle"] == nil)
        #expect(payload.userInfo.keys.sorted() == ["aps"])
        #expect(payload.compactSize == #"{"aps":{"alert":"Hi","mutable-content":1}}"#.utf8.count)
    }

    @Test func bundleKeyDoesNotCountTowardsTheSize() throws {
        let filler = String(repeating: "x", count: 4096 - #"{"aps":{"mutable-content":1},"p":""}"#.utf8.count)
        let value: JSONValue = [
            "Simulator Target Bundle": "com.example.a.rather.long.bundle.identifier",
            "aps": ["mutable-content": 1], "p": .string(filler),
        ]
        let payload = try Payload(apnsFileData: data(value))
        #expect(payload.compactSize == 4096)
        // The same object read as a .json file keeps the key, and is then too large.
        #expect(message { try Payload(jsonData: data(value)) }?.hasPrefix("payload too large") == true)
    }

    @Test func apnsFileWithoutBundleKeyHasNoApp() throws {
        let payload = try Payload(apnsFileData: Data(#"{"aps": {"mutable-content": 1}}"#.utf8))
        #expect(payload.appBundleID == nil)
    }

    @Test func jsonFileKeepsTheBundleKeyAsData() throws {
        let payload = try Payload(jsonData: Data(#"{"Simulator Target Bundle": "a.b", "aps": {}}"#.utf8))
        #expect(payload.appBundleID == nil)
        #expect(payload.userInfo["Simulator Target Bundle"] == "a.b")
    }

    @Test func bundleKeyMustBeAString() {
        let text = #"{"Simulator Target Bundle": 5, "aps": {}}"#
        #expect(message { try Payload(apnsFileData: Data(text.utf8)) }
            == "Simulator Target Bundle must be a string (the app's bundle identifier)")
    }

    @Test func apnsFileIsCheckedLikeAnyPayload() {
        #expect(message { try Payload(apnsFileData: Data(#"{"Simulator Target Bundle": "a.b"}"#.utf8)) }
            == "aps is missing; a payload needs an aps dictionary")
        #expect(message { try Payload(apnsFileData: Data("[]".utf8)) } == "payload is not a JSON object: it is an array")
    }
}
