import LuaSandbox
import NotificationModel

/// Why a Lua value is not JSON-shaped.
struct ConversionError: Error {
    let message: String
}

/// Lua values and JSON values, both ways.
enum ValueConversion {
    /// JSON to Lua, as ``LuaJSONSink`` writes it: objects and arrays become tables (an empty
    /// array stays an array when it comes back), null becomes `json.null`, integers stay
    /// integers.
    static func lua(_ value: JSONValue) -> LuaInput {
        var writer = LuaValueWriter(capacity: 64)
        LuaJSONSink.write(value, into: &writer)
        return .encoded(writer)
    }

    /// A value that writes itself as JSON (an attachment, a category), to Lua as
    /// ``lua(_:)-(JSONValue)`` has it, without making its ``JSONValue`` first.
    static func lua(_ value: some JSONWritable) -> LuaInput {
        var sink = LuaJSONSink(writer: LuaValueWriter(capacity: 256))
        value.write(into: &sink)
        return .encoded(sink.writer)
    }

    /// Lua to JSON, naming the path of what does not fit (`userInfo.x is a function`). An
    /// empty table is an empty object unless it came from a JSON array. Nil is refused.
    static func json(_ value: LuaOutput, path: String) throws(ConversionError) -> JSONValue {
        do {
            return try convert(value)
        } catch {
            throw ConversionError(message: "\(error.path(from: path)) \(error.problem)")
        }
    }

    /// One step into a table, as a message writes it: `[2]` (Lua's index) or `.name`.
    private enum Step {
        case index(Int)
        case key(String)
    }

    /// What does not fit and where; the steps are gathered innermost first, on the way out,
    /// so that a value that converts builds no path at all.
    private struct Misfit: Error {
        let problem: String
        var steps: [Step] = []

        func path(from root: String) -> String {
            var text = root
            for step in steps.reversed() {
                switch step {
                case .index(let i): text += "[\(i)]"
                case .key(let name): text += text.isEmpty ? name : ".\(name)"
                }
            }
            return text
        }
    }

    private static func convert(_ value: LuaOutput) throws(Misfit) -> JSONValue {
        switch value {
        case .nil: throw Misfit(problem: "is nil")
        case .boolean(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .number(let d):
            guard d.isFinite else { throw Misfit(problem: "must be a finite number") }
            return .number(d)
        case .string(let s):
            guard let text = s.utf8String else { throw Misfit(problem: "must be valid UTF-8") }
            return .string(text)
        case .null: return .null
        case .table(let t):
            if t.isArray {
                var out: [JSONValue] = []
                out.reserveCapacity(t.elements.count)
                for (i, element) in t.elements.enumerated() {
                    do { out.append(try convert(element)) } catch {
                        var misfit = error
                        misfit.steps.append(.index(i + 1))
                        throw misfit
                    }
                }
                return .array(out)
            }
            var out: [String: JSONValue] = [:]
            out.reserveCapacity(t.pairs.count)
            for pair in t.pairs {
                guard case .string(let key) = pair.key else {
                    if case .integer = pair.key {
                        throw Misfit(problem: "is not a sequence (a sparse array, or integer keys mixed with names); JSON arrays take the keys 1 to n without gaps, objects string keys")
                    }
                    throw Misfit(problem: "has a \(pair.key.typeName) key; JSON objects take string keys")
                }
                guard let name = key.utf8String else { throw Misfit(problem: "has a key that is not valid UTF-8") }
                do { out[name] = try convert(pair.value) } catch {
                    var misfit = error
                    misfit.steps.append(.key(name))
                    throw misfit
                }
            }
            return .object(out)
        case .cycle: throw Misfit(problem: "contains itself (a cycle)")
        case .tooDeep: throw Misfit(problem: "is nested too deeply")
        case .unsupported(let type): throw Misfit(problem: "is a \(type)")
        case .object: throw Misfit(problem: "is a \(value.typeName)")
        }
    }

    /// About the bytes of `value` as JSON (its strings, plus a few bytes for each value), counted
    /// only until it passes `limit`, so that a large value costs no more than `limit` to measure.
    static func approximateJSONBytes(_ value: LuaOutput, atMost limit: Int) -> Int {
        var total = 0
        func add(_ value: LuaOutput) {
            guard total <= limit else { return }
            switch value {
            case .string(let s): total += s.bytes.count + 3
            case .table(let t):
                total += 2
                if t.isArray {
                    for element in t.elements where total <= limit { add(element) }
                } else {
                    for pair in t.pairs where total <= limit {
                        add(pair.key)
                        add(pair.value)
                    }
                }
            default: total += 8
            }
        }
        add(value)
        return total
    }

    /// Lua to JSON where nil means "unset" (content fields).
    static func optionalJSON(_ value: LuaOutput, path: String) throws(ConversionError) -> JSONValue? {
        if case .nil = value { return nil }
        return try json(value, path: path)
    }
}
