/// Why ``JSONScanner`` could not read a text: what was wrong, and where.
///
/// One vocabulary for every reader of JSON; where a position is counted from, and what the
/// text is called, depend on where the text came from (``Style``).
public struct JSONReadError: Error, Sendable, Hashable {
    /// What the scanner found where it expected something else.
    public enum Found: Sendable, Hashable {
        /// A byte.
        case byte(UInt8)
        /// The end of the text.
        case end
    }

    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// Something that starts no value where a value belongs.
        case unexpected(Found)
        /// Something after the text's one value.
        case afterValue(Found)
        /// Something other than a quoted key where an object's key belongs.
        case expectedKey(Found)
        /// Something other than `:` after an object's key.
        case expectedColon(Found)
        /// Something other than `,` or the closing bracket (`]` or `}`) after a value in a container.
        case expectedCommaOrClose(close: UInt8, Found)
        /// A comma right before the closing bracket `close`; the position is the comma's.
        case trailingComma(close: UInt8)
        /// A string that the text ends in.
        case unterminatedString
        /// A control character (below U+0020) in a string, which JSON writes escaped.
        case controlCharacter
        /// A backslash before this byte, which escapes nothing in JSON.
        case invalidEscape(UInt8)
        /// `\u` without four hex digits after it.
        case invalidUnicodeEscape
        /// A `\u` escape of half a surrogate pair.
        case loneSurrogate
        /// A string whose bytes are not UTF-8.
        case invalidUTF8
        /// A `-` without digits after it.
        case numberWithoutDigits
        /// A `.` without digits after it.
        case noDigitsAfterPoint
        /// An `e` without digits after it.
        case noDigitsInExponent
        /// A number that starts with `0` and goes on with digits.
        case leadingZero
        /// A number beyond `Double` (`1e400`), as written.
        case outOfRange(String)
        /// Arrays and objects nested deeper than the limit the reader was given.
        case tooDeep(limit: Int)
        /// A text in UTF-16 or UTF-32, which JSON is not read in.
        case notUTF8
        /// The builder asked to stop (``JSONBuilder/shouldStop()``).
        case stopped
    }

    /// How a message names the text and counts its positions.
    public enum Style: Sendable {
        /// One line of input (`serve`): bytes counted from 1, as an editor counts columns
        /// (`at byte 5`), and its end is the end of the line.
        case line
        /// A whole text (a file, `json.decode`'s argument): bytes counted from 0
        /// (`around character 4`), and its end is the end of the text.
        case text
    }

    /// What is wrong.
    public let problem: Problem
    /// Where: the offset of the byte, from 0.
    public let offset: Int

    /// An error at `offset`.
    public init(_ problem: Problem, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    /// The one-line, lower-case message: what is wrong, then where unless it is at the end.
    public func message(_ style: Style) -> String {
        let end = style == .line ? "end of line" : "end of text"
        func shown(_ found: Found) -> String {
            switch found {
            case .end: return end
            case .byte(let byte) where byte >= 0x21 && byte < 0x7F: return "character '\(Character(Unicode.Scalar(byte)))'"
            case .byte(let byte): return "byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            }
        }
        let what: String
        var found: Found? = nil
        switch problem {
        case .unexpected(let f): what = "unexpected \(shown(f))"; found = f
        case .afterValue(let f): what = "unexpected \(shown(f)) after the value"; found = f
        case .expectedKey(let f): what = "expected a key in quotes, found \(shown(f))"; found = f
        case .expectedColon(let f): what = "expected ':' after a key, found \(shown(f))"; found = f
        case .expectedCommaOrClose(let close, let f):
            let container = close == UInt8(ascii: "]") ? "an array" : "an object"
            what = "expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container), found \(shown(f))"
            found = f
        case .trailingComma(let close): what = "a comma before '\(Character(Unicode.Scalar(close)))'"
        case .unterminatedString: what = "unexpected \(end) in a string"; found = .end
        case .controlCharacter: what = "a control character in a string"
        case .invalidEscape(let byte) where byte >= 0x21 && byte < 0x7F: what = "invalid escape '\\\(Character(Unicode.Scalar(byte)))'"
        case .invalidEscape(let byte): what = "invalid escape: a backslash before \(shown(.byte(byte)))"
        case .invalidUnicodeEscape: what = "invalid \\u escape"
        case .loneSurrogate: what = "a lone surrogate in a \\u escape"
        case .invalidUTF8: what = "a string that is not valid UTF-8"
        case .numberWithoutDigits: what = "a number needs digits"
        case .noDigitsAfterPoint: what = "a number needs digits after '.'"
        case .noDigitsInExponent: what = "a number needs digits in its exponent"
        case .leadingZero: what = "a number with a leading zero"
        case .outOfRange(let text): what = "number \(text) is out of range"
        case .tooDeep(let limit): what = "arrays and objects nested deeper than \(limit) levels"
        case .notUTF8: return "the text is UTF-16 or UTF-32; save it as UTF-8"
        case .stopped: what = "reading stopped"
        }
        if found == .end { return what }
        return style == .line ? "\(what) at byte \(offset + 1)" : "\(what) around character \(offset)"
    }
}
