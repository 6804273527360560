import Foundation
import Testing
@testable import NotificationModel

/// The one JSON reader: what it accepts and refuses, its messages in both styles, and the
/// builder's view of a text.
@Suite struct JSONScannerTests {
    /// The message of reading `text` into JSON values, in `style`; nil when it reads.
    func message(_ text: String, _ style: JSONReadError.Style, maximumDepth: Int = 512) -> String? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var builder = JSONValue.Builder()
            do throws(JSONReadError) {
                _ = try JSONScanner.read(UnsafeBufferPointer(buffer), into: &builder, maximumDepth: maximumDepth)
                return nil
            } catch {
                return error.message(style)
            }
        }
    }

    @Test func messagesCountPositionsByStyle() {
        // A serve line counts bytes from 1; a text (file, json.decode) from 0.
        #expect(message("not json", .line) == "unexpected character 'n' at byte 1")
        #expect(message("not json", .text) == "unexpected character 'n' around character 0")
        #expect(message("[1,]", .text) == "a comma before ']' around character 2")
        #expect(message("[1,]", .line) == "a comma before ']' at byte 3")
        #expect(message(#"{"a":1 , }"#, .line) == "a comma before '}' at byte 8")
        #expect(message(#"{"a" 1}"#, .text) == "expected ':' after a key, found character '1' around character 5")
        #expect(message(#"{"a":1 "b":2}"#, .line) == "expected ',' or '}' in an object, found character '\"' at byte 8")
        #expect(message("[1 2]", .line) == "expected ',' or ']' in an array, found character '2' at byte 4")
        #expect(message("{1:2}", .line) == "expected a key in quotes, found character '1' at byte 2")
        #expect(message("[1] x", .line) == "unexpected character 'x' after the value at byte 5")
        #expect(message("\u{FEFF}{}", .line) == "unexpected byte 0xef at byte 1")
    }

    @Test func theEndOfTheTextHasNoPosition() {
        #expect(message("", .line) == "unexpected end of line")
        #expect(message("  ", .text) == "unexpected end of text")
        #expect(message("[1,", .line) == "unexpected end of line")
        #expect(message("[1", .text) == "expected ',' or ']' in an array, found end of text")
        #expect(message("nul", .line) == "unexpected end of line")
        #expect(message(#"{"a": "b"#, .line) == "unexpected end of line in a string")
        #expect(message(#""\u00"#, .line) == "unexpected end of line in a string")
    }

    @Test func stringsAndNumbersSayWhatIsWrong() {
        #expect(message("\"a\tb\"", .line) == "a control character in a string at byte 3")
        #expect(message(#""\x""#, .line) == #"invalid escape '\x' at byte 2"#)
        #expect(message("\"\\\n\"", .line) == "invalid escape: a backslash before byte 0x0a at byte 2")
        #expect(message(#""\u12G4""#, .line) == #"invalid \u escape at byte 2"#)
        #expect(message(#"["\ud800"]"#, .line) == #"a lone surrogate in a \u escape at byte 3"#)
        #expect(message(#""\ud800\u0041""#, .line) == #"a lone surrogate in a \u escape at byte 2"#)
        #expect(message(#""\udc00""#, .line) == #"a lone surrogate in a \u escape at byte 2"#)
        #expect(message("[01]", .line) == "a number with a leading zero at byte 2")
        #expect(message("-", .line) == "a number needs digits at byte 2")
        #expect(message("1.", .line) == "a number needs digits after '.' at byte 3")
        #expect(message("1e+", .line) == "a number needs digits in its exponent at byte 4")
        #expect(message("[1e400]", .line) == "number 1e400 is out of range at byte 2")
        #expect(message("1" + String(repeating: "0", count: 400) + ".5", .line)
                == "number 100000000000000000000000… (403 characters) is out of range at byte 1")
        #expect(message("[" + String(repeating: "[", count: 512) + String(repeating: "]", count: 513), .line)
                == "arrays and objects nested deeper than 512 levels at byte 513")
    }

    @Test func invalidUTF8IsRefusedWithAndWithoutEscapes() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x22]] {
            var text = bytes
            let shown = text.withUnsafeMutableBufferPointer { buffer in
                var builder = JSONValue.Builder()
                do throws(JSONReadError) {
                    _ = try JSONScanner.read(UnsafeBufferPointer(buffer), into: &builder, maximumDepth: 1)
                    return "read"
                } catch {
                    return error.message(.line)
                }
            }
            #expect(shown == "a string that is not valid UTF-8 at byte 1", "\(bytes)")
        }
    }

    /// The reader's UTF-8 check agrees with the standard library's on every sequence of one
    /// and two bytes and on every three-byte sequence that starts a three- or four-byte form.
    @Test func utf8CheckAgreesWithTheStandardLibrary() {
        func agree(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { JSONScanner.isValidUTF8($0) } == (String(validating: bytes, as: UTF8.self) != nil)
        }
        for a in 0...255 {
            #expect(agree([UInt8(a)]))
            for b in 0...255 where !agree([UInt8(a), UInt8(b)]) { Issue.record("\([a, b])") }
        }
        for a in 0xE0...0xF4 {
            for b in 0x70...0xC0 {
                for c in [0x30, 0x80, 0xBF, 0xC0] where !agree([UInt8(a), UInt8(b), UInt8(c)]) || !agree([UInt8(a), UInt8(b), UInt8(c), 0x80]) {
                    Issue.record("\([a, b, c])")
                }
            }
        }
    }

    @Test func escapesResolve() throws {
        let value = try JSONValue(jsonString: #"["\"\\\/\b\f\n\r\t", "\u00e9\u20AC\ud83d\ude00", "a\u0000b", "é\n"]"#)
        #expect(value == ["\"\\/\u{8}\u{C}\n\r\t", "é€😀", "a\u{0}b", "é\n"])
    }

    /// What a builder sees, in order: the calls ``JSONScanner`` makes.
    struct Recorder: JSONBuilder {
        var calls: [String] = []
        var stopAfter = Int.max
        var asked = 0
        mutating func null() -> Int { calls.append("null"); return 0 }
        mutating func bool(_ value: Bool) -> Int { calls.append("\(value)"); return 0 }
        mutating func integer(_ value: Int64) -> Int { calls.append("int \(value)"); return 0 }
        mutating func number(_ value: Double) -> Int { calls.append("num \(value)"); return 0 }
        mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) -> Int { calls.append("str \(String(decoding: utf8, as: UTF8.self))"); return 0 }
        mutating func key(_ utf8: UnsafeBufferPointer<UInt8>) -> String { String(decoding: utf8, as: UTF8.self) }
        mutating func beginArray() -> Int { calls.append("["); return 0 }
        mutating func append(_ element: Int, to array: inout Int) { array += 1 }
        mutating func endArray(_ array: Int) -> Int { calls.append("] \(array)"); return 0 }
        mutating func beginObject() -> Int { calls.append("{"); return 0 }
        mutating func add(_ value: Int, for key: String, to object: inout Int) { calls.append("key \(key)"); object += 1 }
        mutating func endObject(_ object: Int) -> Int { calls.append("} \(object)"); return 0 }
        mutating func shouldStop() -> Bool {
            asked += 1
            return asked >= stopAfter
        }
    }

    func record(_ text: String, stopAfter: Int = .max, skipping: Bool = false, maximumDepth: Int = 512) -> (Recorder, String?) {
        var recorder = Recorder(stopAfter: stopAfter)
        var bytes = Array(text.utf8)
        let failure = bytes.withUnsafeMutableBufferPointer { buffer -> String? in
            do throws(JSONReadError) {
                if skipping {
                    let read = try JSONScanner.readSkippingTooDeep(UnsafeBufferPointer(buffer), into: &recorder, maximumDepth: maximumDepth)
                    return read.skippedTooDeep ? "skipped" : nil
                }
                _ = try JSONScanner.read(UnsafeBufferPointer(buffer), into: &recorder, maximumDepth: maximumDepth)
                return nil
            } catch {
                return error.problem == .stopped ? "stopped" : error.message(.line)
            }
        }
        return (recorder, failure)
    }

    @Test func builderSeesTheTextInOrderWithRepeatedKeys() {
        let (recorder, failure) = record(#" {"b": [1, 2.5, "x\ty"], "a": {}, "b": null, "t": true} "#.replacingOccurrences(of: "\t", with: "\\t"))
        #expect(failure == nil)
        #expect(recorder.calls == ["{", "[", "int 1", "num 2.5", "str x\ty", "] 3", "key b", "{", "} 0", "key a", "null", "key b", "true", "key t", "} 4"])
    }

    @Test func builderIsAskedEveryCheckIntervalValuesAndCanStop() {
        let text = "[" + Array(repeating: "1", count: 3 * JSONScanner.checkInterval).joined(separator: ",") + "]"
        let (whole, none) = record(text)
        #expect(none == nil)
        #expect(whole.asked == 3)  // 3 × interval + 1 values
        let (stopped, failure) = record(text, stopAfter: 2)
        #expect(failure == "stopped")
        #expect(stopped.asked == 2)
        #expect(stopped.calls.count == 2 * JSONScanner.checkInterval - 1)
    }

    @Test func skippingTooDeepReadsOnAndLeavesOutTheTopLevelMembersThatHeldIt() {
        let deep = String(repeating: "[", count: 5) + #""]","# + String(repeating: "]", count: 5)
        let (recorder, failure) = record(#"{"a": \#(deep), "id": 7, "b": [1, \#(deep)]}"#, skipping: true, maximumDepth: 3)
        #expect(failure == "skipped")
        #expect(recorder.calls == ["{", "[", "[", "null", "] 1", "] 1", "int 7", "key id", "[", "int 1", "[", "null", "] 1", "] 2", "} 1"])
        // Refused outright without skipping; what follows a skipped part must still be JSON.
        #expect(record(#"{"a": \#(deep)}"#, maximumDepth: 3).1 == "arrays and objects nested deeper than 3 levels at byte 9")
        #expect(record(#"{"a": \#(deep), x}"#, skipping: true, maximumDepth: 3).1 == "expected a key in quotes, found character 'x' at byte 23")
        #expect(record(#"{"a": [[[[[1, 2"#, skipping: true, maximumDepth: 3).1 == "unexpected end of line")
    }
}

/// `JSONValue(jsonData:)`: files, as the reader of `serve` lines and `json.decode` read text.
@Suite struct JSONFileReadingTests {
    func message(_ data: Data) -> String? {
        do {
            _ = try JSONValue(jsonData: data)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aByteOrderMarkMayStartAFile() throws {
        #expect(try JSONValue(jsonData: Data([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))) == ["a": 1])
        #expect(message(Data([0xEF, 0xBB, 0xBF])) == "not valid JSON: unexpected end of text")
        #expect(message(Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31])) == "not valid JSON: unexpected byte 0xef around character 3")
    }

    @Test func utf16AndUTF32AreRefusedSayingSo() {
        for data in [Data([0xFF, 0xFE, 0x7B, 0, 0x7D, 0]), Data([0xFE, 0xFF, 0, 0x7B, 0, 0x7D]), Data([0x7B, 0, 0x7D, 0]), Data([0, 0x5B, 0, 0x5D])] {
            #expect(message(data) == "not valid JSON: the text is UTF-16 or UTF-32; save it as UTF-8")
        }
    }

    @Test func trailingCommasAndOtherLeniencyAreRefused() {
        // Foundation's reader took trailing commas; APNs, serve and json.decode never did.
        #expect(message(Data("[1,]".utf8)) == "not valid JSON: a comma before ']' around character 2")
        #expect(message(Data(#"{"aps": {},}"#.utf8)) == "not valid JSON: a comma before '}' around character 10")
        #expect(message(Data("/* c */ {}".utf8)) == "not valid JSON: unexpected character '/' around character 0")
    }

    @Test func repeatedKeysKeepTheLastValue() throws {
        #expect(try JSONValue(jsonString: #"{"a": 1, "b": 2, "a": [3]}"#) == ["a": [3], "b": 2])
    }

    @Test func filesNestUpTo512Levels() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue(jsonString: deepest).depth == 512)
        #expect(message(Data(("[" + deepest + "]").utf8)) == "not valid JSON: arrays and objects nested deeper than 512 levels around character 512")
    }

    @Test func longNumeralsInAPayloadFileKeepTheirType() throws {
        let payload = try Payload(jsonData: Data(#"""
            {"aps": {"mutable-content": 1}, "id": 1.0000000019902598e+18, "big": 123456789012345678901234567890,
             "max": 9223372036854775807, "min": -9223372036854775808, "past": 9223372036854775808, "f": 1000000000000000000.0}
            """#.utf8))
        func isInteger(_ key: String) -> Bool? {
            switch payload.userInfo[key] {
            case .integer: true
            case .number: false
            default: nil
            }
        }
        #expect(isInteger("id") == false)
        #expect(payload.userInfo["id"]?.doubleValue == 1.0000000019902598e+18)
        #expect(isInteger("big") == false)
        #expect(payload.userInfo["big"]?.doubleValue == 1.2345678901234568e29)
        #expect(isInteger("max") == true)
        #expect(isInteger("min") == true)
        #expect(payload.userInfo["min"]?.integerValue == .min)
        #expect(isInteger("past") == false)
        #expect(isInteger("f") == false)
    }

    @Test func aBrokenPayloadFileSaysWhereAndWhat() {
        do {
            _ = try Payload(jsonData: Data("{\n  \"aps\": {\"alert\": \"hi\"\n  \"mutable-content\": 1}\n}".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "payload is not valid JSON: expected ',' or '}' in an object, found character '\"' around character 28; give the APNs payload as one JSON object")
        }
    }
}
