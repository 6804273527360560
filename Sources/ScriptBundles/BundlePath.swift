/// The rules for a path inside a bundle: relative, `/`-separated, nothing that could name a
/// file outside the folder it is unpacked into, and nothing a file system might read two ways.
///
/// A path has 1 to 8 components of 1 to 128 bytes, 512 bytes at most in all; each component
/// holds only ASCII letters, digits and `. _ - + @` and does not start with `.` (so neither `.`
/// nor `..`, nor a hidden name). Two paths of one bundle may not differ in letter case only
/// (Apple's file systems do not tell them apart).
enum BundlePath {
    static let maximumComponents = 8
    static let maximumComponentBytes = 128
    static let maximumBytes = 512

    /// Why `path` is refused, or nil when it is a bundle path.
    static func problem(_ path: String) -> String? {
        let bytes = Array(path.utf8)
        let shown = String(path.unicodeScalars.prefix(80).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        if bytes.contains(0) { return "the path '\(shown)' holds a NUL byte" }
        if bytes.contains(UInt8(ascii: "\\")) { return "the path '\(shown)' holds a backslash; paths use '/'" }
        if bytes.first == UInt8(ascii: "/") { return "the path '\(shown)' is absolute; paths are relative to the bundle" }
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if components.contains(where: { $0.elementsEqual("..".utf8) }) { return "the path '\(shown)' climbs out of the bundle with '..'" }
        if bytes.isEmpty { return "a path is empty" }
        if bytes.count > maximumBytes { return "the path '\(shown)…' is longer than \(maximumBytes) bytes" }
        if components.count > maximumComponents { return "the path '\(shown)' is more than \(maximumComponents) folders deep" }
        for component in components {
            if component.isEmpty { return "the path '\(shown)' has an empty part ('//' or a '/' at an end)" }
            if component.first == UInt8(ascii: ".") { return "the path '\(shown)' has a part that starts with '.'" }
            if component.count > maximumComponentBytes { return "the path '\(shown)' has a part longer than \(maximumComponentBytes) bytes" }
            if let bad = component.first(where: { !allowed($0) }) {
                return "the path '\(shown)' holds the byte 0x\(Hex.string([bad])); paths hold ASCII letters, digits and . _ - + @"
            }
        }
        return nil
    }

    /// The form two paths that a case-insensitive file system takes for one share.
    static func folded(_ path: String) -> String { path.lowercased() }

    private static func allowed(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "@"): return true
        default: return false
        }
    }
}
