import Foundation
import TestSupport
import NotificationModel
@testable import ScriptHost

/// A Lua value a script returned, as tests compare it.
enum Shown: Equatable, CustomStringConvertible {
    case `nil`
    case bool(Bool)
    case integer(Int64)
    case float(Double)
    case bytes([UInt8])
    /// A value of another type (table, function, userdata): its type name.
    case other(String)

    /// A string value of UTF-8 text.
    static func text(_ s: String) -> Shown { .bytes(Array(s.utf8)) }

    /// A string value of these hex digits' bytes.
    static func hex(_ h: String) -> Shown { .bytes(hexBytes(h)) }

    var description: String {
        switch self {
        case .nil: return "nil"
        case .bool(let b): return "\(b)"
        case .integer(let i): return "\(i) (integer)"
        case .float(let d): return "\(d) (float)"
        case .bytes(let b): return String(validating: b, as: UTF8.self).map { "\"\($0)\"" } ?? "0x" + b.map { String(format: "%02x", $0) }.joined()
        case .other(let t): return "<\(t)>"
        }
    }
}

/// What a script body returned, or the error it raised.
struct Evaluation {
    /// The values `return` gave, when the body returned.
    var values: [Shown]?
    /// The message of the error the body raised (or of the limit that stopped it).
    var error: String?
    /// The whole delivery.
    var result: DeliveryResult
}

/// Bytes from hex digits (test data only: panics on bad input).
func hexBytes(_ h: String) -> [UInt8] {
    let digits = Array(h.filter { !$0.isWhitespace }.utf8)
    precondition(digits.count % 2 == 0)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
}

/// Lua that shows values without the modules under test: strings as hex, numbers with their
/// subtype; and `unhex`, to write binary test data.
private let prelude = """
    local function __show(v)
      local t = type(v)
      if t == "string" then
        local parts = {}
        for i = 1, #v do parts[i] = string.format("%02x", string.byte(v, i)) end
        return "s:" .. table.concat(parts)
      elseif t == "number" then
        if math.type(v) == "integer" then return "i:" .. string.format("%d", v) end
        return "f:" .. string.format("%.17g", v)
      elseif t == "boolean" then return "b:" .. tostring(v)
      elseif t == "nil" then return "n:"
      else return "o:" .. t end
    end
    local function unhex(h)
      local parts = {}
      for i = 1, #h, 2 do parts[#parts + 1] = string.char(tonumber(string.sub(h, i, i + 1), 16)) end
      return table.concat(parts)
    end
    local function __body(request, content)

    """

private let epilogue = """

    end
    function didReceive(request, content)
      local out = table.pack(__body(request, content))
      local parts = {}
      for i = 1, out.n do parts[i] = __show(out[i]) end
      content.body = table.concat(parts, "\\n")
      content.subtitle = "returned"
    end
    """

/// Runs `body` as the inside of a function of `request` and `content`, and reads back what it
/// returned. `return crypto.sha256("abc")` gives `[.bytes(...)]`.
func evaluate(
    _ body: String, host: ScriptHost = ScriptHost(), request: NotificationRequest? = nil
) async throws -> Evaluation {
    let source = prelude + body + epilogue
    let request = try request ?? NotificationRequest(payload: originalPayload(), app: "com.example.app")
    let result = await host.deliver(request, script: .script(Script(name: "eval.lua", source: source)))
    guard result.outcome == .completed, result.content.subtitle == "returned" else {
        return Evaluation(values: nil, error: result.reason?.message ?? "did not return", result: result)
    }
    let lines = result.content.body.isEmpty ? [] : result.content.body.split(separator: "\n", omittingEmptySubsequences: false)
    let values = lines.map { line -> Shown in
        let text = String(line.dropFirst(2))
        switch line.prefix(2) {
        case "s:": return .bytes(hexBytes(text))
        case "i:": return .integer(Int64(text)!)
        case "f:": return .float(Double(text)!)
        case "b:": return .bool(text == "true")
        case "n:": return .nil
        default: return .other(text)
        }
    }
    return Evaluation(values: values, error: nil, result: result)
}

/// The values `body` returns; fails the test (returns nil) when it raised.
func values(_ body: String, host: ScriptHost = ScriptHost(), request: NotificationRequest? = nil) async throws -> [Shown]? {
    try await evaluate(body, host: host, request: request).values
}

/// The error `body` raises, nil when it returned.
func raised(_ body: String, host: ScriptHost = ScriptHost(), request: NotificationRequest? = nil) async throws -> String? {
    try await evaluate(body, host: host, request: request).error
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder(_ name: String = "pushscript-tests") throws -> URL {
    try TemporaryFolder.make(name)
}
