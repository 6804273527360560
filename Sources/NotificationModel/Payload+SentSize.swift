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
    /// own text measured `sentSize` bytes as sent (``JSONValue/Builder/sentSize`` of the read).
    ///
    /// - Throws: ``PayloadError`` when the payload breaks a rule of SPEC §3.
    public init(value: JSONValue, sentSize: Int) throws(PayloadError) {
        guard case .object(let object) = value else {
            throw PayloadError(.notAnObject, "payload is not a JSON object: it is \(Self.article(value.kindName))")
        }
        try self.init(userInfo: object, appBundleID: nil, sentSize: sentSize)
    }
}
