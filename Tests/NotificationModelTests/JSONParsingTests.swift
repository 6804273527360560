import Foundation
import Testing
@testable import NotificationModel

/// How JSON text becomes values: each number's spelling checked by its case, not by `==`
/// (which compares numbers by value).
@Suite struct JSONParsingTests {
    enum Kind: Equatable { case integer(Int64), number(Double), bool(Bool), other }

    func kind(_ text: String) throws -> Kind {
        kind(of: try JSONValue(jsonString: text))
    }

    func kind(of value: JSONValue?) -> Kind {
        switch value {
        case .integer(let integer): .integer(integer)
        case .number(let double): .number(double)
        case .bool(let bool): .bool(bool)
        default: .other
        }
    }

    @Test func integerSpellingIsInteger() throws {
        #expect(try kind("1") == .integer(1))
        #expect(try kind("0") == .integer(0))
        #expect(try kind("-1") == .integer(-1))
        #expect(try kind("-0") == .integer(0))
        #expect(try kind("2147483648") == .integer(2_147_483_648))
        #expect(try kind("-2147483649") == .integer(-2_147_483_649))
    }

    @Test func fractionOrExponentIsNumber() throws {
        #expect(try kind("1.0") == .number(1.0))
        #expect(try kind("2.0") == .number(2.0))
        #expect(try kind("1e2") == .number(100))
        #expect(try kind("1E2") == .number(100))
        #expect(try kind("1.0E+2") == .number(100))
        #expect(try kind("-1.5") == .number(-1.5))
        #expect(try kind("1.5e300") == .number(1.5e300))
        #expect(try kind("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    }

    @Test func booleansStayBooleans() throws {
        #expect(try kind("true") == .bool(true))
        #expect(try kind("false") == .bool(false))
        let array = try JSONValue(jsonString: "[true, 1, false, 0]")
        #expect(array[0]?.boolValue == true)
        #expect(array[1]?.boolValue == nil)
        #expect(array[1]?.integerValue == 1)
        #expect(array[2]?.boolValue == false)
        #expect(array[3]?.boolValue == nil)
    }

    @Test func int64Limits() throws {
        #expect(try kind("9223372036854775807") == .integer(.max))
        // 19 digits: past the reader's fast path, still an integer.
        #expect(try kind("-9223372036854775808") == .integer(.min))
        #expect(try kind("-9223372036854775807") == .integer(-9_223_372_036_854_775_807))
        #expect(try kind("-1000000000000000000") == .integer(-1_000_000_000_000_000_000))
    }

    @Test func integersBeyondInt64BecomeNumbers() throws {
        // As Lua reads an integer numeral that does not fit: as a float.
        #expect(try kind("9223372036854775808") == .number(9_223_372_036_854_775_808.0))
        #expect(try kind("18446744073709551615") == .number(18_446_744_073_709_551_615.0))
        #expect(try kind("18446744073709551616") == .number(18_446_744_073_709_551_616.0))
        #expect(try kind("-9223372036854775809") == .number(-9_223_372_036_854_775_809.0))
        #expect(try kind("123456789012345678901234567890") == .number(1.2345678901234568e29))
    }

    @Test func longFractionsKeepTheirExactValue() throws {
        // Rounded correctly from all their digits.
        #expect(try kind("0.30000000000000004") == .number(0.30000000000000004))
        #expect(try kind("123456789012345678901234567890.5") == .number(1.2345678901234568e29))
        #expect(try kind("100000000000000000000.0") == .number(1e20))
    }

    @Test func longNumeralsWithAFractionOrExponentStayFloats() throws {
        // Typed by their spelling, however long: a fraction or exponent makes a float.
        #expect(try kind("1000000001990259778.2") == .number(1_000_000_001_990_259_778.2))
        #expect(try kind("1.0000000019902598e+18") == .number(1.0000000019902598e+18))
        #expect(try kind("-1.00000000199025980E18") == .number(-1.0000000019902598e+18))
        let nested = try JSONValue(jsonString: #"{"id": 1.0000000019902598e+18, "list": [1000000000000000000.0, 1000000000000000001]}"#)
        #expect(kind(of: nested["id"]) == .number(1.0000000019902598e+18))
        #expect(kind(of: nested["list"]?[0]) == .number(1e18))
        #expect(kind(of: nested["list"]?[1]) == .integer(1_000_000_000_000_000_001))
        // A string that looks like a long float does not make an integer numeral a float.
        let mixed = try JSONValue(jsonString: #"["1000000000000000000.0", 1000000000000000000]"#)
        #expect(kind(of: mixed[1]) == .integer(1_000_000_000_000_000_000))
    }

    @Test func tinyNumbersUnderflowToZeroOrSubnormal() throws {
        #expect(try kind("1e-400") == .number(0))
        #expect(try kind("4.9e-324") == .number(Double.leastNonzeroMagnitude))
    }

    @Test func numbersBeyondDoubleAreRefused() {
        for text in ["1e400", "-1e400", "[1e999]"] {
            #expect {
                _ = try JSONValue(jsonString: text)
            } throws: { error in
                (error as? JSONError)?.message.hasPrefix("not valid JSON") == true
            }
        }
    }

    @Test func containersAndScalars() throws {
        let value = try JSONValue(jsonString: #"{"a": [1, "two", null, {"b": false}], "c": "é/😀"}"#)
        #expect(value == ["a": [1, "two", nil, ["b": false]], "c": "é/😀"])
        #expect(value["a"]?[2]?.isNull == true)
        #expect(value["a"]?[9] == nil)
        #expect(value["missing"] == nil)
        #expect(try JSONValue(jsonString: "null") == .null)
        #expect(try JSONValue(jsonString: #""s""#) == "s")
    }

    @Test func invalidTextIsRefusedWithTheReason() throws {
        for text in ["", "   ", "{\"a\" 1}", "nul", "{\"a\":", "[\"\\ud800\"]"] {
            #expect(throws: JSONError.self) { _ = try JSONValue(jsonString: text) }
        }
        do {
            _ = try JSONValue(jsonString: "{\"a\" 1}")
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "not valid JSON: expected ':' after a key, found character '1' around character 5")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func invalidUTF8IsRefused() {
        var data = Data(#"{"a":""#.utf8)
        data.append(0xFF)
        data.append(contentsOf: Array(#""}"#.utf8))
        #expect(throws: JSONError.self) { _ = try JSONValue(jsonData: data) }
    }
}
