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
struct DataModule: ScriptModule {
    unowned let host: ModuleHost

    /// The deepest nesting `json.decode` gives a script (the bridge carries no deeper value).
    static let maximumJSONDepth = 100

    func install() {
        let sandbox = host.sandbox
        sandbox.registerNull(as: "null", in: "json")
        sandbox.register("decode", in: "json") { [unowned sandbox] call in
            Arguments.string(call, 0, "decode").then { s in
                // The host's parse would cost many times the text: refuse before it what could
                // not fit in the state anyway.
                let needed = StrictJSON.minimumLuaBytes(of: s.bytes)
                let left = sandbox.memoryLeft
                if needed > left {
                    return .values([.nil, .text("too large: the decoded value needs at least \(needed) bytes, and the script has \(left) bytes of memory left")])
                }
                var builder = LuaJSONBuilder { [unowned sandbox] in sandbox.limitPassed() }
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
