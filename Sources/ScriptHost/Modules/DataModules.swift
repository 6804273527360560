import Foundation
import LuaSandbox
import NotificationModel

/// `json`, `base64` and `hex`: data in and out of strings.
///
/// - `json.decode(s)`: objects and arrays become tables (an empty array stays an array when
///   encoded again), `null` is `json.null`, numbers written without a fraction or exponent are
///   integers. Text that is not strict JSON (a trailing comma included) gives `nil, err`.
/// - `json.encode(v)`: keys sorted, compact; a table with keys `1...n` is an array, an empty
///   table an object (unless it came from a JSON array), `nil` and `json.null` are `null`.
///   Functions, other key types, sparse arrays, cycles, NaN and infinities, and strings that
///   are not UTF-8 give `nil, err`.
/// - `base64.encode(s)`: the standard alphabet with padding. `base64.decode(s)`: ``Base64``,
///   the one dialect the host reads; anything else `nil, err`.
/// - `hex.encode(s)`: lower case. `hex.decode(s)`: either case; odd length or another
///   character `nil, err`.
///
/// An argument that is not a string (for the decoders and encoders of strings) raises an error.
extension HostedSandbox {
    /// The deepest nesting `json.decode` gives a script (the bridge carries no deeper value).
    static let maximumJSONDepth = 100

    func installData() {
        sandbox.registerNull(as: "null", in: "json")
        sandbox.register("decode", in: "json") { [unowned self] call in
            Arguments.string(call, 0, "decode").then { s in
                // The host's parse would cost many times the text: refuse before it what could
                // not fit in the state anyway.
                let needed = StrictJSON.minimumLuaBytes(of: s.bytes)
                let left = sandbox.memoryLeft
                if needed > left {
                    return .values([.nil, .text("too large: the decoded value needs at least \(needed) bytes, and the script has \(left) bytes of memory left")])
                }
                var builder = LuaJSONBuilder { [unowned self] in sandbox.limitPassed() }
                do throws(JSONReadError) {
                    let value = try s.bytes.withUnsafeBufferPointer { (bytes) throws(JSONReadError) in
                        try JSONScanner.read(bytes, into: &builder, maximumDepth: Self.maximumJSONDepth)
                    }
                    return .values([value])
                } catch {
                    if let kind = builder.stoppedBy { return .kill(kind) }
                    switch error.problem {
                    case .tooDeep:
                        let depth = StrictJSON.depth(of: s.bytes)
                        return .values([.nil, .text("too deeply nested: \(depth) levels of arrays and objects; json.decode takes at most \(Self.maximumJSONDepth)")])
                    default: return .values([.nil, .text("not valid JSON: \(error.message(.text))")])
                    }
                }
            }
        }
        sandbox.register("encode", in: "json") { call in
            // nil is JSON null, as other Lua JSON libraries have it.
            if call[0].isNil { return .values([.text("null")]) }
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
                switch Base64.decode(s.bytes) {
                case .success(let bytes): return .values([.string(LuaString(bytes: bytes))])
                case .failure(let failure): return .values([.nil, .text("invalid base64: \(failure.message)")])
                }
            }
        }
        sandbox.register("encode", in: "hex") { call in
            Arguments.string(call, 0, "encode").then { .values([.text(Hex.encode($0.bytes))]) }
        }
        sandbox.register("decode", in: "hex") { call in
            Arguments.string(call, 0, "decode").then { s in
                switch Hex.decode(s.bytes) {
                case .success(let bytes): return .values([.string(LuaString(bytes: bytes))])
                case .failure(let failure): return .values([.nil, .text("invalid hex: \(failure.message)")])
                }
            }
        }
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

    static func decode(_ text: [UInt8]) -> Result<[UInt8], HostFailure> {
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(text.count / 2)
        var high: UInt8 = 0
        for (index, c) in text.enumerated() {
            guard let v = value(c) else { return .failure(HostFailure("\(shown(c)) at position \(index + 1) is not a hex digit")) }
            if index % 2 == 0 { high = v } else { out.append(high << 4 | v) }
        }
        guard text.count % 2 == 0 else { return .failure(HostFailure("an odd number of digits (\(text.count))")) }
        return .success(out)
    }
}

/// A byte for a message: the character in quotes when it is printable ASCII, else its code.
/// A byte in a decoder's message: the character when printable, else its hex value.
func shown(_ byte: UInt8) -> String {
    (0x20..<0x7f).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02x", byte)
}

/// What a JSON text costs decoded, and how deep it nests, read without decoding it.
enum StrictJSON {
    /// A lower bound of the bytes the value of `text` takes in a Lua state: every value takes
    /// a slot of 16 bytes in its array or object, and every array or object a table of at least
    /// 56 bytes. One pass over the bytes, no value built.
    static func minimumLuaBytes(of text: [UInt8]) -> Int {
        text.withUnsafeBufferPointer { bytes in
            var inString = false
            var escaped = false
            var separators = 0
            var containers = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let c = bytes[i]
                i &+= 1
                if inString {
                    if escaped { escaped = false } else if c == 0x5c { escaped = true } else if c == 0x22 { inString = false }
                } else if c == 0x2c {  // ,
                    separators &+= 1
                } else if c == 0x22 {  // "
                    inString = true
                } else if c == 0x5b || c == 0x7b {  // [ {
                    containers &+= 1
                }
            }
            return 16 &* separators &+ 56 &* containers
        }
    }

    /// How deep the arrays and objects of `text` nest (brackets outside strings).
    static func depth(of text: [UInt8]) -> Int {
        var inString = false
        var escaped = false
        var depth = 0
        var deepest = 0
        for c in text {
            if inString {
                if escaped { escaped = false } else if c == 0x5c { escaped = true } else if c == 0x22 { inString = false }
            } else if c == 0x22 {
                inString = true
            } else if c == 0x5b || c == 0x7b {
                depth += 1
                deepest = max(deepest, depth)
            } else if c == 0x5d || c == 0x7d {
                depth -= 1
            }
        }
        return deepest
    }
}
