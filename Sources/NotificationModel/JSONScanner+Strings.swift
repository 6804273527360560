extension JSONScan {
    @inlinable
    mutating func string() throws(JSONReadError) -> Builder.Value {
        try readString { builder, utf8 in builder.string(utf8) }
    }

    @inlinable
    mutating func key() throws(JSONReadError) -> Builder.Key {
        try readString { builder, utf8 in builder.key(utf8) }
    }

    /// Reads the string at the scanner and hands its bytes to the builder through `make`.
    @inlinable
    mutating func readString<Made>(_ make: (inout Builder, UnsafeBufferPointer<UInt8>) -> Made) throws(JSONReadError) -> Made {
        if let range = try scanString() { return make(&builder, UnsafeBufferPointer(rebasing: bytes[range])) }
        var builder = self.builder
        defer { self.builder = builder }
        return scratch.withUnsafeBufferPointer { make(&builder, $0) }
    }

    /// Moves past the string that starts at the scanner. Its bytes are `bytes[range]` when it
    /// has no escapes (nothing copied), else ``scratch`` (nil returned).
    @inlinable
    mutating func scanString() throws(JSONReadError) -> Range<Int>? {
        let open = index
        index &+= 1
        let start = index
        var high: UInt8 = 0  // the bits of the raw bytes: 0x80 set when some are not ASCII
        // Eight bytes at a time while none is a quote, a backslash or a control character.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index &+ 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let below = (word &- ones &* 0x20) & ~word
                let quote = word ^ (ones &* 0x22), slash = word ^ (ones &* 0x5C)
                let equal = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)
                if (below | equal) & highs != 0 { break }
                if word & highs != 0 { high = 0x80 }
                index &+= 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let range = start..<index
                index &+= 1
                guard high < 0x80 || JSONScanner.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[range])) else {
                    throw JSONReadError(.invalidUTF8, at: open)
                }
                return range
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw JSONReadError(.controlCharacter, at: index) }
            high |= byte
            index &+= 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index &+= 1
                guard high < 0x80 || scratch.withUnsafeBufferPointer(JSONScanner.isValidUTF8) else {
                    throw JSONReadError(.invalidUTF8, at: open)
                }
                return nil
            case UInt8(ascii: "\\"):
                try escape()
            default:
                guard byte >= 0x20 else { throw JSONReadError(.controlCharacter, at: index) }
                high |= byte
                scratch.append(byte)
                index &+= 1
            }
        }
        throw JSONReadError(.unterminatedString, at: open)
    }

    /// Resolves the escape at the scanner into ``scratch``.
    @inlinable
    mutating func escape() throws(JSONReadError) {
        let backslash = index
        index &+= 1
        guard index < bytes.count else { throw JSONReadError(.unterminatedString, at: backslash) }
        let escaped = bytes[index]
        index &+= 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex4(escapeAt: backslash)
            if code >= 0xD800, code < 0xDC00 {
                guard index &+ 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index &+ 1] == UInt8(ascii: "u") else {
                    throw JSONReadError(.loneSurrogate, at: backslash)
                }
                index &+= 2
                let low = try hex4(escapeAt: index &- 2)
                guard low >= 0xDC00, low < 0xE000 else { throw JSONReadError(.loneSurrogate, at: backslash) }
                code = 0x10000 &+ ((code &- 0xD800) << 10) &+ (low &- 0xDC00)
            } else if code >= 0xDC00, code < 0xE000 {
                throw JSONReadError(.loneSurrogate, at: backslash)
            }
            appendUTF8(code)
        default:
            throw JSONReadError(.invalidEscape(escaped), at: backslash)
        }
    }

    /// The four hex digits after `\u`.
    @inlinable
    mutating func hex4(escapeAt backslash: Int) throws(JSONReadError) -> UInt32 {
        guard index &+ 4 <= bytes.count else { throw JSONReadError(.unterminatedString, at: backslash) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw JSONReadError(.invalidUnicodeEscape, at: backslash)
            }
            value = value << 4 | UInt32(digit)
            index &+= 1
        }
        return value
    }

    /// Appends the UTF-8 bytes of a scalar (not a surrogate, at most U+10FFFF).
    @inlinable
    mutating func appendUTF8(_ code: UInt32) {
        switch code {
        case ..<0x80:
            scratch.append(UInt8(code))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | code >> 6))
            scratch.append(UInt8(0x80 | code & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | code >> 12))
            scratch.append(UInt8(0x80 | code >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | code & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | code >> 18))
            scratch.append(UInt8(0x80 | code >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | code >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | code & 0x3F))
        }
    }
}

extension JSONScanner {
    /// Whether `bytes` are UTF-8 as Unicode defines it (table 3-7): no overlong forms, no
    /// surrogates, nothing beyond U+10FFFF.
    @inlinable
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 {
                i &+= 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xED: length = 3; high = 0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; low = 0x90
            case 0xF4: length = 4; high = 0x8F
            case 0xF1...0xF3: length = 4
            default: return false
            }
            guard i &+ length <= bytes.count, bytes[i &+ 1] >= low, bytes[i &+ 1] <= high else { return false }
            for k in 2..<length where bytes[i &+ k] & 0xC0 != 0x80 { return false }
            i &+= length
        }
        return true
    }
}
