extension JSONScan {
    /// The number at the scanner, typed by how it is written (see ``JSONScanner``).
    @inlinable
    mutating func number() throws(JSONReadError) -> Builder.Value {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index &+= 1 }
        let digits = index
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw JSONReadError(.numberWithoutDigits, at: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index &+= 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw JSONReadError(.leadingZero, at: start) }
        } else {
            skipDigits()
        }
        let integerDigits = index &- digits
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index &+= 1
            guard skipDigits() > 0 else { throw JSONReadError(.noDigitsAfterPoint, at: index) }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            integral = false
            index &+= 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index &+= 1 }
            guard skipDigits() > 0 else { throw JSONReadError(.noDigitsInExponent, at: index) }
        }
        if integral, integerDigits <= 18 {
            // 18 digits always fit Int64.
            var value: Int64 = 0
            for position in digits..<index { value = value &* 10 &+ Int64(bytes[position] &- UInt8(ascii: "0")) }
            return builder.integer(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let integer = Int64(text) { return builder.integer(integer) }
        guard let double = Double(text), double.isFinite else {
            let shown = text.utf8.count <= 40 ? text : "\(text.prefix(24))… (\(text.utf8.count) characters)"
            throw JSONReadError(.outOfRange(shown), at: start)
        }
        return builder.number(double)
    }

    @inlinable
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inlinable
    @discardableResult
    mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, Self.isDigit(bytes[index]) { index &+= 1 }
        return index &- start
    }
}
