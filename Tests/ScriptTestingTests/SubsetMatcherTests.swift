import NotificationModel
import Testing
@testable import ScriptTesting

@Suite struct SubsetMatcherTests {
    private func json(_ text: String) throws -> JSONValue { try JSONValue(jsonString: text) }

    private func mismatches(_ expected: String, _ actual: String) throws -> [Mismatch] {
        SubsetMatcher.mismatches(expected: try json(expected), actual: try json(actual))
    }

    @Test func objectsMatchOnTheKeysGiven() throws {
        #expect(try mismatches(#"{"outcome": "completed"}"#, #"{"outcome": "completed", "logs": []}"#).isEmpty)
        #expect(try mismatches(#"{"content": {"title": "A"}}"#, #"{"content": {"title": "A", "body": "B"}}"#).isEmpty)
        let missing = try mismatches(#"{"content": {"badge": 1}}"#, #"{"content": {"title": "A"}}"#)
        #expect(missing == [Mismatch(path: "content.badge", expected: "1", actual: "(missing)")])
    }

    @Test func arraysMatchOnLengthAndEachElement() throws {
        #expect(try mismatches(#"{"a": [{"type": "public.jpeg"}]}"#, #"{"a": [{"type": "public.jpeg", "size": 5}]}"#).isEmpty)
        let longer = try mismatches(#"{"a": [1]}"#, #"{"a": [1, 2]}"#)
        #expect(longer.count == 1)
        #expect(longer.first?.path == "a")
        #expect(longer.first?.expected.hasPrefix("1 elements") == true)
        let element = try mismatches(#"{"a": [{"type": "public.png"}]}"#, #"{"a": [{"type": "public.jpeg"}]}"#)
        #expect(element == [Mismatch(path: "a[0].type", expected: #""public.png""#, actual: #""public.jpeg""#)])
    }

    @Test func scalarsMustBeEqual() throws {
        #expect(try mismatches(#"{"n": 1}"#, #"{"n": 1}"#).isEmpty)
        #expect(try mismatches(#"{"n": 1}"#, #"{"n": 1.0}"#).isEmpty)
        #expect(try mismatches(#"{"b": true}"#, #"{"b": 1}"#).count == 1)
        #expect(try mismatches(#"{"s": null}"#, #"{"s": ""}"#).count == 1)
        #expect(try mismatches(#"{"title": "abc"}"#, #"{"title": "abcd"}"#).count == 1)
        #expect(try mismatches(#"{"s": {"x": 1}}"#, #"{"s": [1]}"#).count == 1)
    }

    @Test func messagesAndErrorsMatchByContaining() throws {
        #expect(try mismatches(#"{"reason": {"message": "attempt to index"}}"#,
                               #"{"reason": {"kind": "error", "message": "rules.lua:3: attempt to index a nil value"}}"#).isEmpty)
        #expect(try mismatches(#"{"error": "too large"}"#, #"{"error": "payload too large: 5012 bytes"}"#).isEmpty)
        #expect(try mismatches(#"{"logs": [{"message": "no picture"}]}"#, #"{"logs": [{"level": "warn", "message": "no picture: http 404"}]}"#).isEmpty)
        #expect(try mismatches(#"{"reason": {"message": "cpu"}}"#, #"{"reason": {"message": "memory"}}"#).count == 1)
        // only under those keys
        #expect(try mismatches(#"{"content": {"title": "Hel"}}"#, #"{"content": {"title": "Hello"}}"#).count == 1)
    }

    @Test func reasonKindAlone() throws {
        #expect(try mismatches(#"{"outcome": "fallback", "reason": {"kind": "cpu"}}"#,
                               #"{"outcome": "fallback", "reason": {"kind": "cpu", "message": "the script used more than its 100 ms of CPU"}}"#).isEmpty)
        #expect(try mismatches(#"{"reason": {"kind": "cpu"}}"#, #"{"outcome": "completed"}"#)
                == [Mismatch(path: "reason", expected: #"{"kind":"cpu"}"#, actual: "(missing)")])
    }

    @Test func containsMatchesAnOrderedSubset() throws {
        let logs = #"{"logs": [{"level": "warn", "message": "payload has no mutable-content", "source": "host"}, {"level": "info", "message": "hello world"}, {"level": "warn", "message": "no picture: http 404"}]}"#
        #expect(try mismatches(#"{"logs": {"contains": [{"message": "no picture"}]}}"#, logs).isEmpty)
        #expect(try mismatches(#"{"logs": {"contains": [{"message": "hello"}, {"level": "warn", "message": "picture"}]}}"#, logs).isEmpty)
        #expect(try mismatches(#"{"logs": {"contains": []}}"#, logs).isEmpty)
        // Out of order: the second is found only before the first.
        let order = try mismatches(#"{"logs": {"contains": [{"message": "no picture"}, {"message": "hello"}]}}"#, logs)
        #expect(order.count == 1)
        #expect(order.first?.path == "logs.contains[1]")
        #expect(order.first?.expected.contains("after element 2") == true)
        let absent = try mismatches(#"{"logs": {"contains": [{"level": "error"}]}}"#, logs)
        #expect(absent.first?.path == "logs.contains[0]")
        // A plain array still matches in full.
        #expect(try mismatches(#"{"logs": [{"message": "hello"}]}"#, logs).count == 1)
        // Against an object, "contains" is an ordinary key.
        #expect(try mismatches(#"{"o": {"contains": [1]}}"#, #"{"o": {"contains": [1]}}"#).isEmpty)
        #expect(try mismatches(#"{"o": {"contains": [1]}}"#, #"{"o": {"contains": [1, 2]}}"#).count == 1)
    }

    @Test func categoryAndActionOptionsMatchInAnyOrder() throws {
        let actual = #"{"categories": [{"identifier": "c", "options": ["customDismissAction", "allowInCarPlay"], "actions": [{"identifier": "a", "options": ["foreground", "authenticationRequired"]}]}]}"#
        #expect(try mismatches(#"{"categories": [{"options": ["allowInCarPlay", "customDismissAction"], "actions": [{"options": ["authenticationRequired", "foreground"]}]}]}"#, actual).isEmpty)
        // still the same elements, each once
        let fewer = try mismatches(#"{"categories": [{"actions": [{"options": ["foreground"]}]}]}"#, actual)
        #expect(fewer.map(\.path) == ["categories[0].actions[0].options"])
        let other = try mismatches(#"{"categories": [{"options": ["customDismissAction", "customDismissAction"]}]}"#, actual)
        #expect(other.map(\.path) == ["categories[0].options"])
        #expect(other.first?.expected.hasPrefix("the same elements in any order") == true)
        // contains: a subset in any order
        #expect(try mismatches(#"{"categories": [{"actions": [{"options": {"contains": ["authenticationRequired"]}}]}]}"#, actual).isEmpty)
        #expect(try mismatches(#"{"categories": {"contains": [{"actions": [{"options": ["authenticationRequired", "foreground"]}]}]}}"#, actual).isEmpty)
    }

    @Test func otherArraysKeepTheirOrder() throws {
        // actions (the buttons' order), attachments and logs are ordered
        let actual = #"{"categories": [{"actions": [{"identifier": "a"}, {"identifier": "b"}]}], "logs": [{"message": "x"}, {"message": "y"}], "content": {"options": ["p", "q"]}}"#
        #expect(try mismatches(#"{"categories": [{"actions": [{"identifier": "b"}, {"identifier": "a"}]}]}"#, actual).count == 2)
        #expect(try mismatches(#"{"logs": [{"message": "y"}, {"message": "x"}]}"#, actual).count == 2)
        #expect(try mismatches(#"{"content": {"options": ["q", "p"]}}"#, actual).count == 2)
        #expect(SubsetMatcher.isUnordered("categories[3].actions[12].options"))
        #expect(!SubsetMatcher.isUnordered("categories[3].actions"))
        #expect(!SubsetMatcher.isUnordered("content.categories[0].options"))
    }
}
