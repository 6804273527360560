import Foundation

extension Payload {
    /// The size of a payload text as sent: its bytes without the whitespace between tokens.
    /// Measured on the text, not on the value parsed from it, so that a key written twice (of
    /// which a parser keeps one) still counts with all its bytes.
    static func sentSize(ofText data: Data) -> Int {
        data.withUnsafeBytes { sentSize(ofText: $0[...]) }
    }

    /// ``sentSize(ofText:)-(Data)`` of the bytes of `bytes`.
    static func sentSize(ofText bytes: Slice<UnsafeRawBufferPointer>) -> Int {
        var size = 0
        var inString = false
        var escaped = false
        for c in bytes {
            if inString {
                size &+= 1
                if escaped { escaped = false } else if c == 0x5c { escaped = true } else if c == 0x22 { inString = false }
            } else if c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d {
                continue
            } else {
                size &+= 1
                if c == 0x22 { inString = true }
            }
        }
        return size
    }

    /// The sent size of an `.apns` file's text less its `Simulator Target Bundle` member
    /// (`"Simulator Target Bundle":"…"` and a comma), which is not sent.
    static func sentSize(ofAPNSText data: Data, target: JSONValue?) -> Int {
        let whole = sentSize(ofText: data)
        guard let target, let value = try? target.jsonData() else { return whole }
        let member = Data("\"\(simulatorTargetBundleKey)\":".utf8).count + value.count + 1
        return max(0, whole - member)
    }
}

extension Payload {
    /// Checks a payload given as a value read from a larger JSON text (a `serve` line), whose
    /// own text measured `sentSize` bytes as sent (``sentSize(ofMember:in:)``).
    ///
    /// - Throws: ``PayloadError`` when the payload breaks a rule of SPEC §3.
    public init(value: JSONValue, sentSize: Int) throws(PayloadError) {
        guard case .object(let object) = value else {
            throw PayloadError(.notAnObject, "payload is not a JSON object: it is \(Self.article(value.kindName))")
        }
        try self.init(userInfo: object, appBundleID: nil, sentSize: sentSize)
    }

    /// The sent size of the value of the member `name` of the JSON object `text` (the largest,
    /// when the name is written more than once), or nil when `text` is not an object that has
    /// it. Keys are compared as written.
    public static func sentSize(ofMember name: String, in text: Data) -> Int? {
        text.withUnsafeBytes { sentSize(ofMember: name, inUTF8: $0) }
    }

    /// ``sentSize(ofMember:in:)`` of a text given as its UTF-8 bytes, read where they are.
    public static func sentSize(ofMember name: String, inUTF8 bytes: UnsafeRawBufferPointer) -> Int? {
        let wanted = Array(name.utf8)
        var i = 0
        func skipSpace() { while i < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[i]) { i += 1 } }
        /// Moves past the string that starts at i; its bytes between the quotes.
        func string() -> Slice<UnsafeRawBufferPointer>? {
            guard i < bytes.count, bytes[i] == 0x22 else { return nil }
            let start = i + 1
            i += 1
            while i < bytes.count {
                if bytes[i] == 0x5c { i += 2; continue }
                if bytes[i] == 0x22 { i += 1; return bytes[start..<(i - 1)] }
                i += 1
            }
            return nil
        }
        /// Moves past the value that starts at i.
        func value() -> Bool {
            var depth = 0
            while i < bytes.count {
                switch bytes[i] {
                case 0x22: guard string() != nil else { return false }; continue
                case 0x5b, 0x7b: depth += 1
                case 0x5d, 0x7d:
                    if depth == 0 { return true }
                    depth -= 1
                case 0x2c: if depth == 0 { return true }
                default: break
                }
                i += 1
            }
            return depth == 0
        }
        skipSpace()
        guard i < bytes.count, bytes[i] == 0x7b else { return nil }
        i += 1
        var found: Int?
        while true {
            skipSpace()
            guard let key = string() else { return found }
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3a else { return found }
            i += 1
            skipSpace()
            let start = i
            guard value() else { return found }
            if key.elementsEqual(wanted) {
                let size = sentSize(ofText: bytes[start..<i])
                found = max(found ?? 0, size)
            }
            guard i < bytes.count, bytes[i] == 0x2c else { return found }
            i += 1
        }
    }
}
