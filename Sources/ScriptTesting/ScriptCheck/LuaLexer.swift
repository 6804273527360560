/// Splits Lua 5.4 source into tokens (manual §3.1): names, keywords, symbols, strings short
/// and long, numerals; comments and white space skipped; lines counted as Lua counts them
/// (`\n`, `\r`, `\r\n` and `\n\r` each end one line).
struct LuaLexer {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1

    /// A lexer over source bytes.
    init(_ source: [UInt8]) { bytes = source }

    /// Every token of the source, the last one ``LuaToken/Kind/end``.
    static func tokens(_ source: [UInt8]) throws(LuaSyntaxProblem) -> [LuaToken] {
        var lexer = LuaLexer(source)
        var out: [LuaToken] = []
        lexer.skipShebang()
        while true {
            let token = try lexer.next()
            out.append(token)
            if token.kind == .end { return out }
        }
    }

    private static let symbols3: Set<String> = ["..."]
    private static let symbols2: Set<String> = ["==", "~=", "<=", ">=", "<<", ">>", "//", "::", ".."]
    private static let symbols1: Set<UInt8> = Set("+-*/%^#&~|<>=(){}[];:,.".utf8)

    private func peek(_ offset: Int = 0) -> UInt8? {
        i + offset < bytes.count ? bytes[i + offset] : nil
    }

    /// A first line starting with `#` is skipped, as `lua` does for `#!` lines.
    private mutating func skipShebang() {
        guard peek() == UInt8(ascii: "#") else { return }
        while let c = peek(), c != 10, c != 13 { i += 1 }
    }

    /// Steps over a line break at `i` (one of the four forms) and counts it.
    private mutating func newline() {
        let first = bytes[i]
        i += 1
        if let c = peek(), c == 10 || c == 13, c != first { i += 1 }
        line += 1
    }

    private static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 95
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    private mutating func next() throws(LuaSyntaxProblem) -> LuaToken {
        while let c = peek() {
            switch c {
            case 10, 13:
                newline()
            case 32, 9, 11, 12:
                i += 1
            case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "-"):
                i += 2
                if let level = longBracketLevel() {
                    _ = try longString(level: level, what: "comment")
                } else {
                    while let c = peek(), c != 10, c != 13 { i += 1 }
                }
            default:
                return try token(startingWith: c)
            }
        }
        return LuaToken(kind: .end, text: "", line: line)
    }

    private mutating func token(startingWith c: UInt8) throws(LuaSyntaxProblem) -> LuaToken {
        let start = line
        if Self.isNameStart(c) {
            let from = i
            while let d = peek(), Self.isNameStart(d) || Self.isDigit(d) { i += 1 }
            let text = String(decoding: bytes[from..<i], as: UTF8.self)
            return LuaToken(kind: LuaToken.keywords.contains(text) ? .keyword : .name, text: text, line: start)
        }
        if Self.isDigit(c) || (c == UInt8(ascii: ".") && peek(1).map(Self.isDigit) == true) {
            number()
            return LuaToken(kind: .number, text: "", line: start)
        }
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
            return LuaToken(kind: .string, text: try shortString(quote: c), line: start)
        }
        if c == UInt8(ascii: "["), let level = longBracketLevel() {
            return LuaToken(kind: .string, text: try longString(level: level, what: "string"), line: start)
        }
        for length in [3, 2] where i + length <= bytes.count {
            let text = String(decoding: bytes[i..<i + length], as: UTF8.self)
            if (length == 3 ? Self.symbols3 : Self.symbols2).contains(text) {
                i += length
                return LuaToken(kind: .symbol, text: text, line: start)
            }
        }
        if Self.symbols1.contains(c) {
            i += 1
            return LuaToken(kind: .symbol, text: String(UnicodeScalar(c)), line: start)
        }
        throw LuaSyntaxProblem(line: start, message: "unexpected character (byte \(c))")
    }

    /// A numeral: decimal or hexadecimal, with a fraction and an exponent.
    private mutating func number() {
        var exponents: Set<UInt8> = [UInt8(ascii: "e"), UInt8(ascii: "E")]
        if peek() == UInt8(ascii: "0"), let x = peek(1), x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
            exponents = [UInt8(ascii: "p"), UInt8(ascii: "P")]
            i += 2
        }
        while let c = peek() {
            if exponents.contains(c), let sign = peek(1), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                i += 2
            } else if Self.isNameStart(c) || Self.isDigit(c) || c == UInt8(ascii: ".") {
                i += 1
            } else {
                return
            }
        }
    }

    /// A quoted string; its text when it has no escapes, else `""`.
    private mutating func shortString(quote: UInt8) throws(LuaSyntaxProblem) -> String {
        let start = line
        i += 1
        let from = i
        var escaped = false
        while let c = peek() {
            switch c {
            case quote:
                let text = escaped ? "" : String(decoding: bytes[from..<i], as: UTF8.self)
                i += 1
                return text
            case UInt8(ascii: "\\"):
                escaped = true
                i += 1
                // An escaped line break continues the string on the next line.
                if let d = peek(), d == 10 || d == 13 { newline() } else if peek() != nil { i += 1 }
            case 10, 13:
                throw LuaSyntaxProblem(line: start, message: "unfinished string")
            default:
                i += 1
            }
        }
        throw LuaSyntaxProblem(line: start, message: "unfinished string")
    }

    /// The level of a long bracket `[==[` opening at `i` (the number of `=`), if one does.
    private func longBracketLevel() -> Int? {
        guard peek() == UInt8(ascii: "[") else { return nil }
        var level = 0
        while peek(1 + level) == UInt8(ascii: "=") { level += 1 }
        return peek(1 + level) == UInt8(ascii: "[") ? level : nil
    }

    /// A long string or comment whose opening bracket is at `i`; returns its contents.
    private mutating func longString(level: Int, what: String) throws(LuaSyntaxProblem) -> String {
        let start = line
        i += level + 2
        let from = i
        while let c = peek() {
            if c == 10 || c == 13 {
                newline()
                continue
            }
            if c == UInt8(ascii: "]") {
                var n = 0
                while peek(1 + n) == UInt8(ascii: "=") { n += 1 }
                if n == level, peek(1 + n) == UInt8(ascii: "]") {
                    let text = String(decoding: bytes[from..<i], as: UTF8.self)
                    i += level + 2
                    return text
                }
            }
            i += 1
        }
        throw LuaSyntaxProblem(line: start, message: "unfinished long \(what)")
    }
}
