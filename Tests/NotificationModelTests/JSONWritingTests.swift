import Foundation
import Testing
@testable import NotificationModel

@Suite struct JSONWritingTests {
    @Test func scalars() throws {
        #expect(try JSONValue.null.jsonString() == "null")
        #expect(try JSONValue.bool(true).jsonString() == "true")
        #expect(try JSONValue.bool(false).jsonString() == "false")
        #expect(try JSONValue.integer(42).jsonString() == "42")
        #expect(try JSONValue.integer(-7).jsonString() == "-7")
        #expect(try JSONValue.integer(.min).jsonString() == "-9223372036854775808")
        #expect(try JSONValue.integer(.max).jsonString() == "9223372036854775807")
    }

    /// A byte to escape is found wherever it is in a string: in each of the eight-byte words
    /// the writer looks at, or in the tail after them; the bytes next to it never are.
    @Test func aByteToEscapeIsFoundAtEveryPlace() throws {
        for special in [UInt8(0x00), 0x01, 0x1F, UInt8(ascii: "\""), UInt8(ascii: "\\")] {
            for length in [1, 7, 8, 9, 16, 17, 23] {
                for place in 0..<length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[place] = special
                    let text = try JSONValue.string(String(decoding: bytes, as: UTF8.self)).jsonString()
                    let read = try JSONValue(jsonString: text)
                    #expect(read == .string(String(decoding: bytes, as: UTF8.self)), "\(special) at \(place) of \(length)")
                    #expect(text.utf8.count > length + 2, "\(special) at \(place) of \(length) is escaped")
                }
            }
        }
        // bytes just outside the escaped ones go as they are
        for near in [UInt8(0x20), 0x21, 0x23, 0x5B, 0x5D, 0x7F] {
            let string = String(decoding: [UInt8](repeating: near, count: 19), as: UTF8.self)
            #expect(try JSONValue.string(string).jsonString() == "\"" + string + "\"")
        }
    }

    @Test func integralDoublesKeepTheirFraction() throws {
        #expect(try JSONValue.number(2.0).jsonString() == "2.0")
        #expect(try JSONValue.number(0).jsonString() == "0.0")
        #expect(try JSONValue.number(-0.0).jsonString() == "-0.0")
        #expect(try JSONValue.number(123_456_789).jsonString() == "123456789.0")
        #expect(try JSONValue.number(1e15).jsonString() == "1000000000000000.0")
    }

    @Test func doublesRoundTrip() throws {
        let samples: [Double] = [
            0.1, 0.30000000000000004, 1.0 / 3.0, 1e16, 1e20, 1e21, 1.5e300, -2.5e-8,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, .pi, 2.0, 0.5,
        ]
        for double in samples {
            let text = try JSONValue.number(double).jsonString()
            guard case .number(let back) = try JSONValue(jsonString: text) else {
                Issue.record("\(text) did not read back as a number")
                continue
            }
            #expect(back == double, "\(text)")
            #expect(back.bitPattern == double.bitPattern, "\(text)")
        }
        #expect(try JSONValue.number(0.1).jsonString() == "0.1")
        #expect(try JSONValue.number(1e20).jsonString() == "1e+20")
    }

    /// Numbers with at most three decimals (rounded durations, scores) are written without
    /// making a string; the text is the one Swift's own shortest form gives, for every count
    /// of thousandths below 100, at random ones up to 10^12, and next to every edge of it.
    @Test func thousandthsAreWrittenAsTheirShortestText() {
        func written(_ number: Double) -> String {
            var writer = JSONWriter()
            writer.write(number: number)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        var samples: [Double] = (0..<100_000).map { Double($0) / 1000 }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            samples.append(Double(UInt64.random(in: 0..<1_000_000_000_000_000, using: &random)) / 1000)
            samples.append(Double(UInt64.random(in: 0..<1_000_000_000, using: &random)) / 100)
            samples.append(Double.random(in: 0..<1000, using: &random))  // mostly not thousandths
        }
        samples += [1e12, 1e12 - 0.001, 999_999_999_999.999, 0.001, 0.0001, 1e-7, 0.1 + 0.2, 2.675, 1.0005, 4.35]
        samples += samples.map { -$0 }
        for number in samples {
            #expect(written(number) == JSONWriter.text(of: number), "\(number)")
        }
        #expect(written(-0.0) == "-0.0")
        #expect(written(0.25) == "0.25")
        #expect(written(12.5) == "12.5")
        #expect(written(3.0) == "3.0")
    }

    @Test func nonFiniteNumbersAreRefusedNamingWhere() throws {
        #expect(throws: JSONError("cannot write nan as JSON; JSON numbers must be finite")) {
            _ = try JSONValue.number(.nan).jsonString()
        }
        #expect(throws: JSONError("cannot write inf as JSON at content.relevanceScore; JSON numbers must be finite")) {
            _ = try JSONValue.object(["content": ["relevanceScore": .number(.infinity)]]).jsonString()
        }
        #expect(throws: JSONError("cannot write -inf as JSON at list[1]; JSON numbers must be finite")) {
            _ = try JSONValue.object(["list": [1, .number(-.infinity)]]).jsonString()
        }
    }

    @Test func stringEscaping() throws {
        #expect(try JSONValue.string(#"say "hi""#).jsonString() == #""say \"hi\"""#)
        #expect(try JSONValue.string(#"back\slash"#).jsonString() == #""back\\slash""#)
        #expect(try JSONValue.string("a/b").jsonString() == #""a/b""#)
        #expect(try JSONValue.string("\u{08}\u{09}\u{0A}\u{0C}\u{0D}").jsonString() == #""\b\t\n\f\r""#)
        #expect(try JSONValue.string("\u{00}\u{01}\u{1F}").jsonString() == #""\u0000\u0001\u001f""#)
        // DEL and everything above U+001F go out as UTF-8, unescaped.
        #expect(try JSONValue.string("\u{7F}é😀\u{2028}").jsonString() == "\"\u{7F}é😀\u{2028}\"")
        #expect(try JSONValue.string("é").jsonData() == Data([0x22, 0xC3, 0xA9, 0x22]))
    }

    @Test func everyControlCharacterRoundTrips() throws {
        let text = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }) + "\"\\/"
        let written = try JSONValue.string(text).jsonString()
        #expect(try JSONValue(jsonString: written) == .string(text))
        #expect(!written.utf8.contains { $0 < 0x20 })
    }

    @Test func keysAreSortedByCodePoint() throws {
        let value: JSONValue = ["b": 1, "a": 2, "B": 3, "é": 4, "aa": 5, "_": 6]
        #expect(try value.jsonString() == #"{"B":3,"_":6,"a":2,"aa":5,"b":1,"é":4}"#)
    }

    @Test func manyKeysComeOutInTheOrderOfTheirBytes() throws {
        var object: [String: JSONValue] = [:]
        for n in 0..<300 { object["k\((n * 7919) % 1000)\(n % 3 == 0 ? "é" : "")"] = .integer(Int64(n)) }
        let written = try JSONValue.object(object).jsonString()
        let keys = object.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let expected = "{" + keys.map { "\"\($0)\":\(object[$0]!.integerValue!)" }.joined(separator: ",") + "}"
        #expect(written == expected)
    }

    @Test func nestedObjectsAreSortedToo() throws {
        let value: JSONValue = ["z": ["y": 1, "x": [["d": 1, "c": 2]]], "a": []]
        #expect(try value.jsonString() == #"{"a":[],"z":{"x":[{"c":2,"d":1}],"y":1}}"#)
    }

    @Test func preferredKeysComeFirstInTheirOrder() throws {
        let value: JSONValue = [
            "stats": [:], "logs": [], "content": ["body": "b", "title": "t", "zeta": 1, "alpha": 2],
            "outcome": "completed", "extra": true,
        ]
        let order = JSONKeyOrder(
            first: ["outcome", "reason", "suppressed", "content", "logs", "stats"],
            nested: ["content": JSONKeyOrder(first: ["title", "body"])]
        )
        #expect(try value.jsonString(keyOrder: order)
            == #"{"outcome":"completed","content":{"title":"t","body":"b","alpha":2,"zeta":1},"logs":[],"stats":{},"extra":true}"#)
    }

    @Test func nestedOrderReachesThroughArrays() throws {
        let value: JSONValue = ["logs": [["message": "m", "level": "warn", "source": "host"]]]
        let order = JSONKeyOrder(nested: ["logs": JSONKeyOrder(first: ["level", "message"])])
        #expect(try value.jsonString(keyOrder: order) == #"{"logs":[{"level":"warn","message":"m","source":"host"}]}"#)
    }

    @Test func preferredOrderDoesNotLeakIntoOtherKeys() throws {
        let value: JSONValue = ["a": ["title": 1, "body": 2], "b": ["title": 1, "body": 2]]
        let order = JSONKeyOrder(nested: ["a": JSONKeyOrder(first: ["title"])])
        #expect(try value.jsonString(keyOrder: order) == #"{"a":{"title":1,"body":2},"b":{"body":2,"title":1}}"#)
    }

    @Test func arrangeHandlesAbsentAndRepeatedPreferredKeys() {
        let order = JSONKeyOrder(first: ["c", "missing", "a", "c"])
        #expect(order.arrange(["b", "a", "c", "d"]) == ["c", "a", "b", "d"])
    }

    @Test func prettyPrintingIndentsByTwoSpaces() throws {
        let value: JSONValue = ["b": [1, ["c": nil]], "a": "x", "e": [:], "f": []]
        let expected = """
        {
          "a": "x",
          "b": [
            1,
            {
              "c": null
            }
          ],
          "e": {},
          "f": []
        }
        """
        #expect(try value.jsonString(prettyPrinted: true) == expected)
        #expect(try JSONValue(jsonString: expected) == value)
    }

    @Test func writtenTextReadsBackTheSameValue() throws {
        let value: JSONValue = [
            "aps": ["alert": ["title": "T\n\"q\"", "body": "b"], "badge": 3, "relevance-score": 0.25],
            "list": [true, false, nil, 1.5, -3, "x/y"], "nested": ["deep": [["deeper": [:]]]],
        ]
        for pretty in [false, true] {
            let data = try value.jsonData(prettyPrinted: pretty)
            let back = try JSONValue(jsonData: data)
            #expect(back == value)
            // Integers stay integers and floats stay floats through a round trip.
            guard case .integer = back["aps"]?["badge"], case .number = back["list"]?[3] else {
                Issue.record("number kinds changed")
                continue
            }
        }
    }

    @Test func writerAgreesWithFoundationOnMeaning() throws {
        let value: JSONValue = ["k": ["é", "\u{1}", 1, 2.5, true, nil]]
        let ours = try value.jsonData()
        let theirs = try JSONSerialization.jsonObject(with: ours) as? [String: Any]
        let list = try #require(theirs?["k"] as? [Any])
        #expect(list[0] as? String == "é")
        #expect(list[1] as? String == "\u{1}")
        #expect(list[5] is NSNull)
    }
}

/// The compact size a payload's limit sees is counted without writing the text; it must be
/// the written text's length for every kind of value.
@Suite struct CompactByteCountTests {
    /// Values of every kind, escapes, multi-byte text, nesting and empty containers.
    static let values: [JSONValue] = [
        .null, .bool(true), .bool(false), .integer(0), .integer(-7), .integer(1234567890),
        .integer(.min), .integer(.max), .number(0.1), .number(-2), .number(1e300), .number(.leastNonzeroMagnitude),
        .string(""), .string("plain"), .string("quote \" slash \\ tab \t nl \n cr \r bs \u{8} ff \u{c}"),
        .string("\u{0}\u{1}\u{1f} ünï 😀"), .array([]), .object([:]),
        .array([.integer(1), .string("two"), .array([.null, .object(["k": .bool(true)])])]),
        .object(["b": .integer(1), "a\"": .array([.number(2.5), .object([:])]), "ü": .object(["x": .array([])])]),
    ]

    @Test(arguments: values) func theCountIsTheLengthOfTheText(_ value: JSONValue) throws {
        #expect(value.compactByteCount == (try value.jsonBytes()).count)
    }

    @Test func aNonFiniteNumberHasNoCount() {
        #expect(JSONValue.array([.integer(1), .object(["x": .number(.nan)])]).compactByteCount == nil)
    }
}
