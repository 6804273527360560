import LuaSandbox

/// Reads JSON text straight into Lua values for `json.decode`, as strictly as RFC 8259 has it,
/// and cheaply: no intermediate objects. Every few thousand values it asks `check` whether a
/// limit of the run has passed, and stops when one has, so that a long text cannot run past
/// the script's CPU budget or deadline inside the host.
///
/// Numbers are typed by how they are written: without a fraction or exponent and within
/// `Int64` they are integers, everything else floats (`1e400` is refused); `null` is
/// ``LuaInput/null``; an object's repeated key keeps its last value.
struct ScriptJSONReader {
    /// Why reading stopped.
    enum Failure: Error {
        /// Not valid JSON: what is wrong, and where.
        case invalid(String)
        /// Nested deeper than the reader takes: the depth reached.
        case tooDeep
        /// A limit of the run passed while reading.
        case limit(LimitKind)
    }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0
    private var values = 0
    private let maximumDepth: Int
    private let check: () -> LimitKind?

    /// Values read between two calls of `check`.
    static let checkInterval = 4096

    /// Reads `text` whole: one value, with nothing but whitespace around it.
    static func read(_ text: [UInt8], maximumDepth: Int, check: @escaping () -> LimitKind?) throws(Failure) -> LuaInput {
        var reader = ScriptJSONReader(bytes: text, maximumDepth: maximumDepth, check: check)
        reader.skipSpace()
        let value = try reader.value()
        reader.skipSpace()
        if reader.i < text.count { throw reader.invalid("unexpected \(reader.shown) after the value") }
        return value
    }

    private init(bytes: [UInt8], maximumDepth: Int, check: @escaping () -> LimitKind?) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.check = check
    }

    private var shown: String {
        guard i < bytes.count else { return "end of text" }
        let c = bytes[i]
        return (0x20..<0x7f).contains(c) ? "'\(Character(Unicode.Scalar(c)))'" : "byte \(c)"
    }

    private func invalid(_ what: String) -> Failure { .invalid("not valid JSON: \(what) at character \(i)") }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func counted() throws(Failure) {
        values &+= 1
        if values % Self.checkInterval == 0, let kind = check() { throw .limit(kind) }
    }

    private mutating func value() throws(Failure) -> LuaInput {
        try counted()
        guard i < bytes.count else { throw invalid("unexpected end of text") }
        switch bytes[i] {
        case 0x7b: return try object()
        case 0x5b: return try array()
        case 0x22: return .string(LuaString(bytes: try string()))
        case 0x74: try literal("true"); return .boolean(true)
        case 0x66: try literal("false"); return .boolean(false)
        case 0x6e: try literal("null"); return .null
        case 0x2d, 0x30...0x39: return try number()
        default: throw invalid("unexpected \(shown)")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard i + expected.count <= bytes.count, bytes[i..<(i + expected.count)].elementsEqual(expected) else {
            throw invalid("unexpected \(shown)")
        }
        i += expected.count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > maximumDepth { throw .tooDeep }
        i += 1
        skipSpace()
    }

    private mutating func array() throws(Failure) -> LuaInput {
        try enter()
        var elements: [LuaInput] = []
        if i < bytes.count, bytes[i] == 0x5d {
            i += 1
            depth -= 1
            return .table(LuaTable(array: elements))
        }
        while true {
            elements.append(try value())
            skipSpace()
            guard i < bytes.count else { throw invalid("unexpected end of text in an array") }
            if bytes[i] == 0x5d { i += 1; break }
            guard bytes[i] == 0x2c else { throw invalid("expected ',' or ']', found \(shown)") }
            let comma = i
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] == 0x5d { throw .invalid("not valid JSON: a comma before ']' around character \(comma)") }
        }
        depth -= 1
        return .table(LuaTable(array: elements))
    }

    private mutating func object() throws(Failure) -> LuaInput {
        try enter()
        var pairs: [LuaTablePair<LuaInput>] = []
        var index: [[UInt8]: Int] = [:]
        if i < bytes.count, bytes[i] == 0x7d {
            i += 1
            depth -= 1
            return .table(LuaTable(pairs: pairs))
        }
        while true {
            guard i < bytes.count, bytes[i] == 0x22 else { throw invalid("expected a string key, found \(shown)") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3a else { throw invalid("expected ':', found \(shown)") }
            i += 1
            skipSpace()
            let element = try value()
            if let at = index[key] {
                pairs[at] = LuaTablePair(key: .string(LuaString(bytes: key)), value: element)
            } else {
                index[key] = pairs.count
                pairs.append(LuaTablePair(key: .string(LuaString(bytes: key)), value: element))
            }
            skipSpace()
            guard i < bytes.count else { throw invalid("unexpected end of text in an object") }
            if bytes[i] == 0x7d { i += 1; break }
            guard bytes[i] == 0x2c else { throw invalid("expected ',' or '}', found \(shown)") }
            let comma = i
            i += 1
            skipSpace()
            if i < bytes.count, bytes[i] == 0x7d { throw .invalid("not valid JSON: a comma before '}' around character \(comma)") }
        }
        depth -= 1
        return .table(LuaTable(pairs: pairs))
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw invalid("a short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            default: throw invalid("a bad \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// The bytes of the string that starts at i (its escapes resolved), checked as UTF-8.
    private mutating func string() throws(Failure) -> [UInt8] {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw invalid("an unterminated string") }
            let c = bytes[i]
            if c == 0x22 { i += 1; break }
            if c < 0x20 { throw invalid("a control character in a string") }
            if c != 0x5c {
                out.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { throw invalid("an unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x22, 0x5c, 0x2f: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0c)
            case 0x6e: out.append(0x0a)
            case 0x72: out.append(0x0d)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = try hex4()
                if (0xd800..<0xdc00).contains(scalar) {
                    guard i + 2 <= bytes.count, bytes[i] == 0x5c, bytes[i + 1] == 0x75 else { throw invalid("a lone surrogate") }
                    i += 2
                    let low = try hex4()
                    guard (0xdc00..<0xe000).contains(low) else { throw invalid("a lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
                } else if (0xdc00..<0xe000).contains(scalar) {
                    throw invalid("a lone surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw invalid("a bad \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw invalid("a bad escape")
            }
        }
        guard String(validating: out, as: UTF8.self) != nil else { throw invalid("a string that is not UTF-8") }
        return out
    }

    private mutating func number() throws(Failure) -> LuaInput {
        let start = i
        var integral = true
        if bytes[i] == 0x2d { i += 1 }
        guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw invalid("a bad number") }
        if bytes[i] == 0x30 {
            i += 1
            if i < bytes.count, (0x30...0x39).contains(bytes[i]) { throw invalid("a number with a leading zero") }
        } else {
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == 0x2e {
            integral = false
            i += 1
            guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw invalid("a bad number") }
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            integral = false
            i += 1
            if i < bytes.count, bytes[i] == 0x2b || bytes[i] == 0x2d { i += 1 }
            guard i < bytes.count, (0x30...0x39).contains(bytes[i]) else { throw invalid("a bad number") }
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if integral, let n = Int64(text) { return .integer(n) }
        guard let d = Double(text), d.isFinite else { throw invalid("the number \(text) is out of range") }
        return .number(d)
    }
}
