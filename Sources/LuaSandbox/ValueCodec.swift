import CLuaShims

/// The byte format values cross the bridge in (see `pss.h`): one tag byte (`pss_tag`), then
/// the payload in native byte order.
enum ValueCodec {
    /// Appends `value` to `bytes`.
    static func encode(_ value: LuaInput, into bytes: inout [UInt8]) {
        switch value {
        case .nil: bytes.append(PSS_TAG_NIL.byte)
        case .boolean(let b): bytes.append((b ? PSS_TAG_TRUE : PSS_TAG_FALSE).byte)
        case .null: bytes.append(PSS_TAG_NULL.byte)
        case .integer(let i):
            bytes.append(PSS_TAG_INTEGER.byte)
            appendRaw(i, to: &bytes)
        case .number(let d):
            bytes.append(PSS_TAG_FLOAT.byte)
            appendRaw(d, to: &bytes)
        case .string(let s):
            bytes.append(PSS_TAG_STRING.byte)
            appendRaw(UInt32(s.bytes.count), to: &bytes)
            bytes.append(contentsOf: s.bytes)
        case .table(let t):
            if t.isArray {
                bytes.append(PSS_TAG_ARRAY.byte)
                appendRaw(UInt32(t.elements.count), to: &bytes)
                for element in t.elements { encode(element, into: &bytes) }
            } else {
                bytes.append(PSS_TAG_TABLE.byte)
                appendRaw(UInt32(t.pairs.count), to: &bytes)
                for pair in t.pairs {
                    encode(pair.key, into: &bytes)
                    encode(pair.value, into: &bytes)
                }
            }
        case .function(let id):
            bytes.append(PSS_TAG_FUNCTION.byte)
            appendRaw(id.rawValue, to: &bytes)
        case .chunk(let chunk):
            bytes.append(PSS_TAG_CHUNK.byte)
            appendRaw(chunk.ref, to: &bytes)
        case .readOnly(let name, let table):
            bytes.append(PSS_TAG_READ_ONLY.byte)
            let nameBytes = Array(name.utf8)
            appendRaw(UInt32(nameBytes.count), to: &bytes)
            bytes.append(contentsOf: nameBytes)
            encode(.table(table), into: &bytes)
        case .lockedCopy(let table):
            bytes.append(PSS_TAG_LOCKED.byte)
            encode(.table(table), into: &bytes)
        }
    }

    /// A value sequence: a count, then the values.
    static func encodeSequence(_ values: [LuaInput]) -> [UInt8] {
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
    static func decode(_ buffer: UnsafeRawBufferPointer) throws(BridgeError) -> LuaOutput {
        var reader = Reader(buffer: buffer)
        return try reader.value()
    }

    /// Decodes a value sequence.
    static func decodeSequence(_ buffer: UnsafeRawBufferPointer) throws(BridgeError) -> [LuaOutput] {
        var reader = Reader(buffer: buffer)
        let count = try reader.u32()
        var values: [LuaOutput] = []
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

        mutating func value() throws(BridgeError) -> LuaOutput {
            switch try byte() {
            case PSS_TAG_NIL.byte: return .nil
            case PSS_TAG_TRUE.byte: return .boolean(true)
            case PSS_TAG_FALSE.byte: return .boolean(false)
            case PSS_TAG_NULL.byte: return .null
            case PSS_TAG_CYCLE.byte: return .cycle
            case PSS_TAG_TOO_DEEP.byte: return .tooDeep
            case PSS_TAG_INTEGER.byte:
                try need(8)
                defer { position += 8 }
                return .integer(buffer.loadUnaligned(fromByteOffset: position, as: Int64.self))
            case PSS_TAG_FLOAT.byte:
                try need(8)
                defer { position += 8 }
                return .number(buffer.loadUnaligned(fromByteOffset: position, as: Double.self))
            case PSS_TAG_STRING.byte:
                let n = Int(try u32())
                try need(n)
                defer { position += n }
                return .string(LuaString(bytes: Array(buffer[position..<position + n])))
            case PSS_TAG_ARRAY.byte:
                let n = try u32()
                var elements: [LuaOutput] = []
                elements.reserveCapacity(Int(n))
                for _ in 0..<n { elements.append(try value()) }
                return .table(LuaTable(array: elements))
            case PSS_TAG_TABLE.byte:
                let n = try u32()
                var pairs: [LuaTablePair<LuaOutput>] = []
                pairs.reserveCapacity(Int(n))
                for _ in 0..<n {
                    let key = try value()
                    pairs.append(LuaTablePair(key: key, value: try value()))
                }
                return .table(LuaTable(pairs: pairs))
            case PSS_TAG_OBJECT.byte:
                try need(4)
                defer { position += 4 }
                return .object(buffer.loadUnaligned(fromByteOffset: position, as: Int32.self))
            case PSS_TAG_UNSUPPORTED.byte:
                return .unsupported(LuaType.name(of: Int32(try byte())) ?? "value")
            default:
                throw BridgeError.malformed
            }
        }
    }
}

extension pss_tag {
    /// The tag as the byte that starts a value.
    var byte: UInt8 { UInt8(rawValue) }
}

/// Lua's basic types as `pss.h` numbers them (`pss_lua_type`, lua.h's numbers).
enum LuaType {
    /// The type name `type()` gives for a type number; `nil` for a number Lua does not use.
    static func name(of type: Int32) -> String? {
        switch UInt32(bitPattern: type) {
        case PSS_LUA_NIL.rawValue: return "nil"
        case PSS_LUA_BOOLEAN.rawValue: return "boolean"
        case PSS_LUA_LIGHTUSERDATA.rawValue, PSS_LUA_USERDATA.rawValue: return "userdata"
        case PSS_LUA_NUMBER.rawValue: return "number"
        case PSS_LUA_STRING.rawValue: return "string"
        case PSS_LUA_TABLE.rawValue: return "table"
        case PSS_LUA_FUNCTION.rawValue: return "function"
        case PSS_LUA_THREAD.rawValue: return "thread"
        default: return nil
        }
    }
}

/// A value buffer from the bridge that could not be read.
enum BridgeError: Error {
    case malformed
}
