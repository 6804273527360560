/// Text from the bytes of a Lua string, when they are valid UTF-8: the one check every string
/// a script hands the host goes through. ASCII, which most strings are, is told eight bytes at
/// a time and decoded at once; anything else is validated first.
package enum UTF8Text {
    /// The text of `bytes`, or nil when they are not valid UTF-8.
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if isASCII(UnsafeRawBufferPointer(bytes)) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The text of `bytes`, or nil when they are not valid UTF-8.
    package static func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
    }

    /// Whether every byte is below 0x80, eight at a time.
    private static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            high |= UInt64(raw[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
