import LuaSandbox
import NotificationModel

/// A payload's `userInfo` in the bridge's format, made as the request's line was read, beside
/// the dictionary it encodes: good for a content's `userInfo` for as long as that is the same
/// dictionary, not changed since (a changed copy has storage of its own).
package struct UserInfoEncoding: Sendable {
    /// The dictionary encoded.
    let userInfo: [String: JSONValue]
    /// Its encoding.
    let bytes: LuaValueWriter

    init(userInfo: [String: JSONValue], bytes: LuaValueWriter) {
        self.userInfo = userInfo
        self.bytes = bytes
    }

    /// The encoding, when `current` is the dictionary encoded; nil when it is another, however
    /// equal (``JSONValue``'s equality has `2 == 2.0`, which Lua tells apart).
    func bytes(for current: [String: JSONValue]) -> LuaValueWriter? {
        Self.sameStorage(current, userInfo) ? bytes : nil
    }

    /// Whether two dictionaries share their storage: one is a copy of the other and neither
    /// changed since (a dictionary is one reference to its storage).
    static func sameStorage(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> Bool {
        withUnsafeBytes(of: a) { a in withUnsafeBytes(of: b) { b in a.elementsEqual(b) } }
    }
}
