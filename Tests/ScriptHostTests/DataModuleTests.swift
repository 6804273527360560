import Foundation
import Testing
import NotificationModel
@testable import ScriptHost

/// `json`, `base64` and `hex` (SPEC "Data").
@Suite struct DataModuleJSONTests {
    @Test func decodeGivesLuaValues() async throws {
        #expect(try await values("""
            local v = json.decode('{"a": 1, "b": [1, 2, {"c": null}], "d": "x\\\\u00e9", "e": true, "f": 1.5, "1": "one"}')
            return v.a, math.type(v.a), #v.b, v.b[3].c == json.null, v.d, v.e, v.f, v["1"], v[1]
            """) == [.integer(1), .text("integer"), .integer(3), .bool(true), .text("xé"), .bool(true), .float(1.5), .text("one"), .nil])
    }

    @Test func integersAndFloatsStayApart() async throws {
        #expect(try await values("""
            return json.decode("2"), json.decode("2.0"), json.decode("1e2"), json.decode("-7"), json.decode("9223372036854775807"),
              json.decode("9223372036854775808")
            """) == [.integer(2), .float(2.0), .float(100), .integer(-7), .integer(.max), .float(9223372036854775808.0)])
        #expect(try await values("return json.encode(2), json.encode(2.0), json.encode(0.1), json.encode(-0.5), json.encode({1, 2.5})")
                == [.text("2"), .text("2.0"), .text("0.1"), .text("-0.5"), .text("[1,2.5]")])
        #expect(try await values("return json.encode(json.decode('[1, 1.0, 1e0, 10]'))") == [.text("[1,1.0,1.0,10]")])
    }

    @Test func nullRoundTrips() async throws {
        #expect(try await values("""
            return json.decode("null") == json.null, json.encode(json.null), json.encode({a = json.null}),
              json.encode(json.decode('[1, null, 2]')), type(json.null), json.encode(nil)
            """) == [.bool(true), .text("null"), .text(#"{"a":null}"#), .text("[1,null,2]"), .text("userdata"), .text("null")])
    }

    @Test func arraysAndObjects() async throws {
        #expect(try await values("""
            return json.encode({1, 2, 3}), json.encode({b = 1, a = {true, false}}), json.encode({}),
              json.encode(json.decode("[]")), json.encode(json.decode('{"a": [], "b": {}}')), json.encode(json.decode("{}")),
              json.encode({["1"] = "x"}), json.encode(json.decode('{"1": "x"}'))
            """) == [
                .text("[1,2,3]"), .text(#"{"a":[true,false],"b":1}"#), .text("{}"), .text("[]"), .text(#"{"a":[],"b":{}}"#), .text("{}"),
                .text(#"{"1":"x"}"#), .text(#"{"1":"x"}"#),
            ])
    }

    @Test func nestedValuesRoundTrip() async throws {
        let text = #"{"aps":{"alert":{"body":"b","loc-args":["x","y"]},"badge":3},"deep":[[[[{"k":[1,2.5,"s",false,null]}]]]]}"#
        #expect(try await values("return json.encode(json.decode('\(text)'))") == [.text(text)])
        #expect(try await values("return json.encode('line\\n\"quoted\"\\\\ é')") == [.text(#""line\n\"quoted\"\\ é""#)])
    }

    @Test func decodeErrorsAreNilAndAMessage() async throws {
        for bad in ["{", "", "[1,]", "{\"a\": 1 , }", "[[1],\n]", "{'a': 1}", "nul", "1e400", "[1] x", "\"\\ud800\"", "[01]", "\"a\tb\""] {
            let shown = try await values("return json.decode([==[\(bad)]==])")
            #expect(shown?.count == 2, "\(bad)")
            #expect(shown?.first == .nil, "\(bad)")
            if case .bytes(let message)? = shown?.last {
                #expect(String(decoding: message, as: UTF8.self).hasPrefix("not valid JSON"), "\(bad)")
            } else {
                Issue.record("no message for \(bad)")
            }
        }
        #expect(try await values("return json.decode('[1,]')") == [.nil, .text("not valid JSON: a comma before ']' around character 2")])
        // The words of every JSON reader of the host: a payload file says the same.
        let file = #"{"a" 1}"#
        #expect(try await values("return json.decode('\(file)')") == [.nil, .text("not valid JSON: expected ':' after a key, found character '1' around character 5")])
        #expect(throws: JSONError("not valid JSON: expected ':' after a key, found character '1' around character 5")) { try JSONValue(jsonString: file) }
        #expect(try await values(#"return json.decode('{"a": 1, "b": 2, "a": [3]}').a[1]"#) == [.integer(3)])
        // Commas and brackets inside strings are text.
        #expect(try await values(#"return json.decode('[",]", "\\",}"]')[2]"#) == [.text("\",}")])
        // Nesting: 100 levels cross, deeper is refused (Foundation's reader stops at 512).
        #expect(try await values("local v = json.decode(string.rep('[', 100) .. string.rep(']', 100)) return type(v), json.encode(v) == string.rep('[', 100) .. string.rep(']', 100)")
                == [.text("table"), .bool(true)])
        #expect(try await values("return json.decode(string.rep('[', 101) .. string.rep(']', 101))")
                == [.nil, .text("too deeply nested: 101 levels of arrays and objects; json.decode takes at most 100")])
        #expect(try await values("return json.decode(string.rep('{\"a\":', 600) .. '1' .. string.rep('}', 600))")?.first == .nil)
        #expect(try await values("local t = {} for i = 1, 200 do t = {t} end return json.encode(t)")?.first == .nil)
        #expect(try await raised("return json.decode(5)")?.contains("bad argument #1 to 'decode' (string expected, got number)") == true)
    }

    @Test func encodeErrorsAreNilAndAMessage() async throws {
        let cases: [(String, String)] = [
            ("print", "cannot encode: value is a function"),
            ("{f = print}", "cannot encode: value.f is a function"),
            ("{a = {1, {b = print}}}", "cannot encode: value.a[2].b is a function"),
            ("{{}, {1, 0/0}}", "cannot encode: value[2][2] must be a finite number"),
            ("{1, nil, 3}", "cannot encode: value is not a sequence (a sparse array, or integer keys mixed with names); JSON arrays take the keys 1 to n without gaps, objects string keys"),
            ("{[2] = 'b', [3] = 'c'}", "cannot encode: value is not a sequence (a sparse array"),
            ("{a = {[2] = 'b', [3] = 'c', [4] = 'd'}}", "cannot encode: value.a is not a sequence"),
            ("{1, 2, x = 3}", "cannot encode: value is not a sequence"),
            ("{[1.5] = 1}", "cannot encode: value has a number key; JSON objects take string keys"),
            ("{[true] = 1}", "cannot encode: value has a boolean key"),
            ("0/0", "cannot encode: value must be a finite number"),
            ("math.huge", "cannot encode: value must be a finite number"),
            ("'\\255'", "cannot encode: value must be valid UTF-8"),
            ("(function() local t = {} t.t = t return t end)()", "cannot encode: value.t contains itself"),
            ("coroutine.create(print)", "cannot encode: value is a thread"),
        ]
        for (value, message) in cases {
            let shown = try await values("return json.encode(\(value))")
            #expect(shown?.first == .nil, "\(value)")
            if case .bytes(let text)? = shown?.last {
                #expect(String(decoding: text, as: UTF8.self).hasPrefix(message), "\(value): \(String(decoding: text, as: UTF8.self))")
            } else {
                Issue.record("no message for \(value)")
            }
        }
    }
}

@Suite struct DataModuleBase64HexTests {
    /// RFC 4648 section 10.
    @Test func base64EncodesStandardWithPadding() async throws {
        #expect(try await values("""
            return base64.encode(""), base64.encode("f"), base64.encode("fo"), base64.encode("foo"), base64.encode("foob"),
              base64.encode("fooba"), base64.encode("foobar"), base64.encode("\\0\\255\\254"), base64.encode("\\251\\255")
            """) == ["", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy", "AP/+", "+/8="].map(Shown.text))
    }

    @Test func base64DecodesBothAlphabetsPaddingOptional() async throws {
        #expect(try await values("""
            return base64.decode("Zm9vYmFy"), base64.decode("Zm9vYg=="), base64.decode("Zm9vYg"), base64.decode("Zm9vYmE"),
              base64.decode(""), base64.decode("+/8="), base64.decode("-_8="), base64.decode("-_8"), base64.decode("AP/+")
            """) == [.text("foobar"), .text("foob"), .text("foob"), .text("fooba"), .text(""), .bytes([0xfb, 0xff]), .bytes([0xfb, 0xff]),
                     .bytes([0xfb, 0xff]), .bytes([0, 255, 254])])
    }

    @Test func invalidBase64IsNilAndAMessage() async throws {
        for bad in ["Zm9v!", "Z", "Zm9vY", "Zg=", "Zg===", "=Zg=", "Zg==Zg==", "Zm9v Yg==", "Zm9vYg==\\n", "é", "Zm9v.Yg"] {
            let shown = try await values("return base64.decode(\"\(bad)\")")
            #expect(shown?.first == .nil, "\(bad)")
            if case .bytes(let text)? = shown?.last {
                #expect(String(decoding: text, as: UTF8.self).hasPrefix("invalid base64"), "\(bad)")
            } else {
                Issue.record("no message for \(bad)")
            }
        }
        #expect(try await values("return base64.decode('Zm9v!')") == [.nil, .text("invalid base64: '!' at position 5 is not a base64 character")])
        #expect(try await values("return base64.decode('Zm9vY')") == [.nil, .text("invalid base64: 5 characters is one more than a whole number of 4-character groups")])
        #expect(try await values("return base64.decode('Zg=')") == [.nil, .text("invalid base64: 1 '=' after 2 characters; padding fills the last group to 4 characters, or is left out")])
        #expect(try await values("return base64.decode('Zg==Zg==')") == [.nil, .text("invalid base64: '=' at position 3 is not a base64 character")])
        #expect(try await values("return base64.decode('\\0AAA')") == [.nil, .text("invalid base64: byte 0x00 at position 1 is not a base64 character")])
        #expect(try await raised("return base64.decode()")?.contains("bad argument #1 to 'decode' (string expected, got no value)") == true)
        #expect(try await raised("return base64.encode({})")?.contains("bad argument #1 to 'encode' (string expected, got table)") == true)
    }

    @Test func hexIsLowerCaseOutEitherCaseIn() async throws {
        #expect(try await values("""
            return hex.encode("\\0\\255abc"), hex.encode(""), hex.decode("00FFaB"), hex.decode("00ffab"), hex.decode(""),
              hex.decode(hex.encode("\\1\\2\\3"))
            """) == [.text("00ff616263"), .text(""), .bytes([0, 255, 171]), .bytes([0, 255, 171]), .text(""), .bytes([1, 2, 3])])
    }

    @Test func invalidHexIsNilAndAMessage() async throws {
        #expect(try await values("return hex.decode('abc')") == [.nil, .text("invalid hex: an odd number of digits (3)")])
        #expect(try await values("return hex.decode('0g')") == [.nil, .text("invalid hex: 'g' at position 2 is not a hex digit")])
        #expect(try await values("return hex.decode('0x00')") == [.nil, .text("invalid hex: 'x' at position 2 is not a hex digit")])
        #expect(try await values("return hex.decode(' 00 ')") == [.nil, .text("invalid hex: ' ' at position 1 is not a hex digit")])
        #expect(try await raised("return hex.decode(12)")?.contains("bad argument #1 to 'decode' (string expected, got number)") == true)
        #expect(try await raised("return hex.encode()")?.contains("bad argument #1 to 'encode' (string expected, got no value)") == true)
    }
}
