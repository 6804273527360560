import NotificationModel
@testable import ScriptBundles
import Testing

/// The canonical form manifests are signed in: one byte form per value, and nothing else read.
@Suite struct CanonicalJSONTests {
    @Test func writesSortedCompactIntegersAndMinimalEscapes() throws {
        let value: JSONValue = .object(["b": .integer(-2), "a": .array([.string("x\"\\\u{1}é/"), .bool(true), .null]), "B": .integer(0)])
        let bytes = try CanonicalJSON.bytes(value)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"B":0,"a":["x\"\\\u0001é/",true,null],"b":-2}"#)
        #expect(try CanonicalJSON.read(bytes) == value)
    }

    @Test func refusesEveryOtherFormOfTheSameValue() {
        for text in [
            #"{"b":1,"a":2}"#, #"{"a": 2}"#, #"{"a":2} "#, #"{"a":2,"a":2}"#, #"{"a":2.0}"#, #"{"a":-0}"#, #"{"a":1e2}"#,
            #"{"a":"\u00e9"}"#, #"{"a":"\/"}"#, #"{"a":"\u001F"}"#, "\u{FEFF}{}", #"{"a":"\#u{7F}"}"#.replacingOccurrences(of: "\u{7F}", with: "\\u007f"),
        ] {
            #expect(throws: CanonicalJSON.NotCanonical.self, "\(text)") { try CanonicalJSON.read(Array(text.utf8)) }
        }
        #expect(throws: CanonicalJSON.NotCanonical.self) { try CanonicalJSON.read([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) }
        #expect(throws: CanonicalJSON.NotCanonical.self) { try CanonicalJSON.bytes(.number(1.5)) }
    }
}
