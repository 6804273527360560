/// The byte format values cross the bridge in (see `pss.h`): one tag byte, then the payload
/// in native byte order.
enum ValueCodec {
    /// Appends `value` to `bytes`.
    static func encode(_ value: LuaValue, into bytes: inout [UInt8]) {
        switch value {
        case .nil: bytes.append(UInt8(ascii: "n"))
        case .boolean(let b): bytes.append(UInt8(ascii: b ? "t" : "f"))
        case .null: bytes.append(UInt8(ascii: "z"))
        case .integer(let i):
            bytes.append(UInt8(ascii: "i"))
            appendRaw(i, to: &bytes)
        case .number(let d):
            bytes.append(UInt8(ascii: "d"))
            appendRaw(d, to: &bytes)
        case .string(let s):
            bytes.append(UInt8(ascii: "s"))
            appendRaw(UInt32(s.bytes.count), to: &bytes)
            bytes.append(contentsOf: s.bytes)
        case .table(let t):
            if t.isArray {
                bytes.append(UInt8(ascii: "A"))
                appendRaw(UInt32(t.elements.count), to: &bytes)
                for element in t.elements { encode(element, into: &bytes) }
            } else {
                bytes.append(UInt8(ascii: "T"))
                appendRaw(UInt32(t.pairs.count), to: &bytes)
                for pair in t.pairs {
                    encode(pair.key, into: &bytes)
                    encode(pair.value, into: &bytes)
                }
            }
        case .function(let id):
            bytes.append(UInt8(ascii: "F"))
            appendRaw(id.rawValue, to: &bytes)
        case .chunk(let chunk):
            bytes.append(UInt8(ascii: "K"))
            appendRaw(chunk.ref, to: &bytes)
        case .readOnly(let name, let inner):
            guard case .table = inner else {
                encode(inner, into: &bytes)
                return
            }
            bytes.append(UInt8(ascii: "R"))
            let nameBytes = Array(name.utf8)
            appendRaw(UInt32(nameBytes.count), to: &bytes)
            bytes.append(contentsOf: nameBytes)
            encode(inner, into: &bytes)
        case .lockedCopy(let inner):
            guard case .table = inner else {
                encode(inner, into: &bytes)
                return
            }
            bytes.append(UInt8(ascii: "L"))
            encode(inner, into: &bytes)
        case .object, .unsupported, .cycle, .tooDeep:
            // Values that only come from Lua cannot go back: they arrive as nil.
            bytes.append(UInt8(ascii: "n"))
        }
    }

    /// A value sequence: a count, then the values.
    static func encodeSequence(_ values: [LuaValue]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        appendRaw(UInt32(values.count), to: &bytes)
        for value in values { encode(value, into: &bytes) }
        return bytes
    }

    private static func appendRaw<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    private static func appendRaw(_ value: Double, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Decodes one value.
    static func decode(_ buffer: UnsafeRawBufferPointer) throws(BridgeError) -> LuaValue {
        var reader = Reader(buffer: buffer)
        return try reader.value()
    }

    /// Decodes a value sequence.
    static func decodeSequence(_ buffer: UnsafeRawBufferPointer) throws(BridgeError) -> [LuaValue] {
        var reader = Reader(buffer: buffer)
        let count = try reader.u32()
        var values: [LuaValue] = []
        values.reserveCapacity(Int(count))
        for _ in 0..<count { values.append(try reader.value()) }
        return values
    }

    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        var position = 0

        init(buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

        mutating func need(_ n: Int) throws(BridgeError) {
            if buffer.count - position < n { throw BridgeError.malformed }
        }

        mutating func byte() throws(BridgeError) -> UInt8 {
            try need(1)
            defer { position += 1 }
            return buffer[position]
        }

        mutating func u32() throws(BridgeError) -> UInt32 {
            try need(4)
            defer { position += 4 }
            return buffer.loadUnaligned(fromByteOffset: position, as: UInt32.self)
        }

        mutating func value() throws(BridgeError) -> LuaValue {
            switch try byte() {
            case UInt8(ascii: "n"): return .nil
            case UInt8(ascii: "t"): return .boolean(true)
            case UInt8(ascii: "f"): return .boolean(false)
            case UInt8(ascii: "z"): return .null
            case UInt8(ascii: "c"): return .cycle
            case UInt8(ascii: "D"): return .tooDeep
            case UInt8(ascii: "i"):
                try need(8)
                defer { position += 8 }
                return .integer(buffer.loadUnaligned(fromByteOffset: position, as: Int64.self))
            case UInt8(ascii: "d"):
                try need(8)
                defer { position += 8 }
                return .number(buffer.loadUnaligned(fromByteOffset: position, as: Double.self))
            case UInt8(ascii: "s"):
                let n = Int(try u32())
                try need(n)
                defer { position += n }
                return .string(LuaString(bytes: Array(buffer[position..<position + n])))
            case UInt8(ascii: "A"):
                let n = try u32()
                var elements: [LuaValue] = []
                elements.reserveCapacity(Int(n))
                for _ in 0..<n { elements.append(try value()) }
                return .table(LuaTable(array: elements))
            case UInt8(ascii: "T"):
                let n = try u32()
                var pairs: [LuaTablePair] = []
                pairs.reserveCapacity(Int(n))
                for _ in 0..<n {
                    let key = try value()
                    pairs.append(LuaTablePair(key: key, value: try value()))
                }
                return .table(LuaTable(pairs: pairs))
            case UInt8(ascii: "O"):
                try need(4)
                defer { position += 4 }
                return .object(buffer.loadUnaligned(fromByteOffset: position, as: Int32.self))
            case UInt8(ascii: "u"):
                return .unsupported(luaTypeName(Int32(try byte())))
            default:
                throw BridgeError.malformed
            }
        }
    }

    private static func luaTypeName(_ type: Int32) -> String {
        switch type {
        case 2, 7: return "userdata"
        case 6: return "function"
        case 8: return "thread"
        default: return "value"
        }
    }
}

/// A value buffer from the bridge that could not be read.
enum BridgeError: Error {
    case malformed
}
