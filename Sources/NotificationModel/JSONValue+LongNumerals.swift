import Foundation

extension JSONValue {
    /// The long numerals of a JSON text, by value: Foundation stores numerals of more than 17
    /// characters as decimals, which keep the value but lose the spelling, so whether such a
    /// numeral was written with a fraction or exponent is read here from the text itself.
    struct LongNumerals {
        /// Decimal spellings (`Decimal.description`) of long numerals written with a fraction or exponent.
        private(set) var floats: Set<String> = []
        /// Decimal spellings of long numerals written as plain integers.
        private(set) var integers: Set<String> = []

        /// Numerals shorter than this are never handed over as decimals.
        private static let minimumLength = 16

        /// Finds the long numerals outside strings; a text without any costs one pass.
        init(scanning data: Data) {
            var inString = false
            var escaped = false
            var start: Int? = nil
            var fractional = false
            let bytes = [UInt8](data)
            for index in 0...bytes.count {
                let byte: UInt8 = index < bytes.count ? bytes[index] : 0x20
                if inString {
                    if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                    continue
                }
                switch byte {
                case 0x30...0x39, 0x2D, 0x2B:
                    if start == nil { start = index; fractional = false }
                case 0x2E, 0x45, 0x65:
                    if start != nil { fractional = true }
                default:
                    if let first = start {
                        start = nil
                        guard index - first >= Self.minimumLength,
                              let value = Decimal(string: String(decoding: bytes[first..<index], as: UTF8.self))
                        else { break }
                        if fractional { floats.insert(value.description) } else { integers.insert(value.description) }
                    }
                    if byte == 0x22 { inString = true }
                }
            }
        }

        /// Whether the integral decimal spelled `text` was written only with a fraction or exponent.
        /// A value written both ways in one text stays an integer.
        func isFloat(_ text: String) -> Bool {
            floats.contains(text) && !integers.contains(text)
        }
    }
}
