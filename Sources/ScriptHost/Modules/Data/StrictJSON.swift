/// What a JSON text costs decoded, and how deep it nests, read without decoding it.
enum StrictJSON {
    /// A lower bound of the bytes the value of `text` takes in a Lua state: every value takes
    /// a slot of 16 bytes in its array or object, and every array or object a table of at least
    /// 56 bytes. One pass over the bytes, no value built.
    static func minimumLuaBytes(of text: [UInt8]) -> Int {
        text.withUnsafeBufferPointer { bytes in
            var inString = false
            var escaped = false
            var separators = 0
            var containers = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let c = bytes[i]
                i &+= 1
                if inString {
                    if escaped { escaped = false } else if c == 0x5c { escaped = true } else if c == 0x22 { inString = false }
                } else if c == 0x2c {  // ,
                    separators &+= 1
                } else if c == 0x22 {  // "
                    inString = true
                } else if c == 0x5b || c == 0x7b {  // [ {
                    containers &+= 1
                }
            }
            return 16 &* separators &+ 56 &* containers
        }
    }

    /// How deep the arrays and objects of `text` nest (brackets outside strings).
    static func depth(of text: [UInt8]) -> Int {
        var inString = false
        var escaped = false
        var depth = 0
        var deepest = 0
        for c in text {
            if inString {
                if escaped { escaped = false } else if c == 0x5c { escaped = true } else if c == 0x22 { inString = false }
            } else if c == 0x22 {
                inString = true
            } else if c == 0x5b || c == 0x7b {
                depth += 1
                deepest = max(deepest, depth)
            } else if c == 0x5d || c == 0x7d {
                depth -= 1
            }
        }
        return deepest
    }
}
