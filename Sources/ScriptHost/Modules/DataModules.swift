import Foundation
import LuaSandbox
import NotificationModel

/// `json`, `base64` and `hex`: data in and out of strings.
extension HostedSandbox {
    func installData() {
        sandbox.registerNull(as: "null", in: "json")
        sandbox.register("decode", in: "json") { call in
            Arguments.string(call, 0, "decode").then { s in
                do throws(JSONError) {
                    let value = try JSONValue(jsonData: Data(s.bytes))
                    return .values([ValueConversion.lua(value)])
                } catch {
                    return .values([.nil, .text(error.message)])
                }
            }
        }
        sandbox.register("encode", in: "json") { call in
            do {
                let value = try ValueConversion.json(call[0], path: "value")
                return .values([.text(try value.jsonString())])
            } catch let error as ConversionError {
                return .values([.nil, .text("cannot encode: \(error.message)")])
            } catch {
                return .values([.nil, .text("cannot encode: \(error)")])
            }
        }
        sandbox.register("encode", in: "base64") { call in
            Arguments.string(call, 0, "encode").then { .values([.text(Data($0.bytes).base64EncodedString())]) }
        }
        sandbox.register("decode", in: "base64") { call in
            Arguments.string(call, 0, "decode").then { s in
                guard let bytes = Base64.decode(s.bytes) else { return .values([.nil, .text("invalid base64")]) }
                return .values([.string(LuaString(bytes: bytes))])
            }
        }
        sandbox.register("encode", in: "hex") { call in
            Arguments.string(call, 0, "encode").then { .values([.text(Hex.encode($0.bytes))]) }
        }
        sandbox.register("decode", in: "hex") { call in
            Arguments.string(call, 0, "decode").then { s in
                guard let bytes = Hex.decode(s.bytes) else { return .values([.nil, .text("invalid hex")]) }
                return .values([.string(LuaString(bytes: bytes))])
            }
        }
    }
}

/// Base64 decoding that takes the standard and the URL-safe alphabet, padding optional.
enum Base64 {
    static func decode(_ bytes: [UInt8]) -> [UInt8]? {
        var text = bytes.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "-"): return UInt8(ascii: "+")
            case UInt8(ascii: "_"): return UInt8(ascii: "/")
            default: return byte
            }
        }
        if text.count % 4 == 1 { return nil }
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(text)) else { return nil }
        return [UInt8](data)
    }
}

/// Hex: lower case out, either case in.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count / 2)
        var i = 0
        while i < bytes.count {
            guard let hi = value(bytes[i]), let lo = value(bytes[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}
