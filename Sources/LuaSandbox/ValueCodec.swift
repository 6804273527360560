import CLuaSandbox

/// The byte format values cross the bridge in (see `pss_types.h`): one tag byte (`pss_tag`), then
/// the payload in native byte order.
enum ValueCodec {
    /// Writes `value` in the bridge's format.
    static func write(_ value: LuaInput, into writer: inout LuaValueWriter) {
        switch value {
        case .nil: writer.writeNil()
        case .boolean(let b): writer.write(boolean: b)
        case .null: writer.writeNull()
        case .integer(let i): writer.write(integer: i)
        case .number(let d): writer.write(number: d)
        case .string(let s): writer.write(bytes: s.bytes)
        case .table(let t):
            if t.isArray {
                writer.beginArray(count: t.elements.count)
                for element in t.elements { write(element, into: &writer) }
            } else {
                writer.beginTable(count: t.pairs.count)
                for pair in t.pairs {
                    write(pair.key, into: &writer)
                    write(pair.value, into: &writer)
                }
            }
        case .function(let id):
            writer.tag(PSS_TAG_FUNCTION)
            writer.raw(id.rawValue)
        case .chunk(let chunk):
            writer.tag(PSS_TAG_CHUNK)
            writer.raw(chunk.ref)
        case .readOnly(let name, let table):
            writer.tag(PSS_TAG_READ_ONLY)
            let nameBytes = Array(name.utf8)
            writer.raw(UInt32(nameBytes.count))
            writer.bytes.append(contentsOf: nameBytes)
            write(.table(table), into: &writer)
        case .lockedCopy(let table):
            writer.tag(PSS_TAG_LOCKED)
            write(.table(table), into: &writer)
        case .encoded(let written):
            writer.bytes.append(contentsOf: written.bytes)
        }
    }

    /// `value` in the bridge's format.
    static func encode(_ value: LuaInput) -> [UInt8] {
        var writer = LuaValueWriter()
        write(value, into: &writer)
        return writer.bytes
    }

    /// A value sequence: a count, then the values.
    static func encodeSequence(_ values: [LuaInput]) -> [UInt8] {
        var writer = LuaValueWriter(capacity: 16)
        writer.raw(UInt32(values.count))
        for value in values { write(value, into: &writer) }
        return writer.bytes
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

/// Lua's basic types as `pss_types.h` numbers them (`pss_lua_type`, lua.h's numbers).
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
