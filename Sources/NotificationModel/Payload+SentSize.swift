import Foundation

extension Payload {
    /// The size of a payload text as sent: its bytes without the whitespace between tokens.
    /// Measured on the text, not on the value parsed from it, so that a key written twice (of
    /// which a parser keeps one) still counts with all its bytes.
    static func sentSize(ofText data: Data) -> Int {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int in
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
