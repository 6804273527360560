import Foundation
import Testing
import NotificationModel

@Suite struct JSONValueTests {
    @Test func numbersCompareByValue() {
        #expect(JSONValue.integer(2) == .number(2.0))
        #expect(JSONValue.number(2.0) == .integer(2))
        #expect(JSONValue.integer(0) == .number(-0.0))
        #expect(JSONValue.integer(2) != .number(2.5))
        #expect(JSONValue.integer(.max) != .number(9_223_372_036_854_775_808.0))
        #expect(JSONValue.number(.nan) != .number(.nan))
        #expect(JSONValue.integer(1) != .bool(true))
        #expect(JSONValue.string("1") != .integer(1))
    }

    @Test func hashAgreesWithEquality() {
        let set: Set<JSONValue> = [.integer(2), .number(2.0), .number(2.5), .string("2")]
        #expect(set.count == 3)
        #expect(set.contains(.number(2)))
        #expect(Set<JSONValue>([["a": 1], ["a": 1.0]]).count == 1)
    }

    @Test func accessors() {
        let value: JSONValue = ["s": "x", "i": 3, "f": 2.0, "h": 2.5, "b": true, "a": [1], "n": nil]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.integerValue == 3)
        #expect(value["f"]?.integerValue == 2)
        #expect(value["h"]?.integerValue == nil)
        #expect(value["h"]?.doubleValue == 2.5)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["b"]?.boolValue == true)
        #expect(value["b"]?.integerValue == nil)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["n"]?.isNull == true)
        #expect(value["s"]?.objectValue == nil)
        #expect(value.objectValue?.count == 7)
        #expect(JSONValue.number(.infinity).integerValue == nil)
        #expect(JSONValue.number(1e19).integerValue == nil)
    }

    @Test func kindNames() {
        let values: [JSONValue] = [nil, true, 1, 1.5, "s", [], [:]]
        #expect(values.map(\.kindName) == ["null", "boolean", "integer", "number", "string", "array", "object"])
    }

    @Test func depthCountsContainers() {
        #expect(JSONValue.integer(1).depth == 0)
        #expect(JSONValue.object([:]).depth == 1)
        #expect(JSONValue.array([1, 2]).depth == 1)
        let nested: JSONValue = ["a": ["b": [["c": 1]]]]
        #expect(nested.depth == 4)
    }

    @Test func codableRoundTrip() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", true, nil, ["b": [:]]]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data("[true, 1, 1.5]".utf8))
        #expect(decoded[0]?.boolValue == true)
        #expect(decoded[1]?.integerValue == 1)
        #expect(decoded[2]?.doubleValue == 1.5)
    }

    @Test func pathDescriptions() {
        #expect(JSONPath().description == "")
        #expect(JSONPath().appending("custom").appending("u").description == "custom.u")
        #expect(JSONPath().appending("buttons").appending(0).appending("url").description == "buttons[0].url")
        #expect(JSONPath().appending(2).description == "[2]")
    }
}
