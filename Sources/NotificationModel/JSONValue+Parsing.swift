import Foundation

extension JSONValue {
    /// The deepest nesting of arrays and objects that JSON text read into a value may have
    /// (files and `serve` lines).
    public static let maximumDepth = 512

    /// Reads JSON text (UTF-8) with ``JSONScanner``: any value is accepted at the top, not only
    /// containers; numbers are typed by how they are written (`2` an ``integer(_:)``, `2.0`
    /// and integers beyond `Int64` a ``number(_:)``); numbers beyond `Double` (`1e400`) are
    /// refused. A UTF-8 byte order mark may start the text, as some editors save files; a text
    /// in UTF-16 or UTF-32 is refused with a message that says so.
    ///
    /// - Throws: ``JSONError`` starting `not valid JSON`, positions counted from 0
    ///   (``JSONReadError/Style/text``).
    public init(jsonData data: Data) throws(JSONError) {
        let read = data.withUnsafeBytes { raw in Self.read(raw.bindMemory(to: UInt8.self)) }
        switch read {
        case .success(let value): self = value
        case .failure(let error): throw JSONError("not valid JSON: \(error.message(.text))")
        }
    }

    /// Reads JSON text given as its UTF-8 bytes, where they are; see ``init(jsonData:)``.
    public init(jsonUTF8 bytes: some Collection<UInt8>) throws(JSONError) {
        let read = bytes.withContiguousStorageIfAvailable(Self.read) ?? Array(bytes).withUnsafeBufferPointer(Self.read)
        switch read {
        case .success(let value): self = value
        case .failure(let error): throw JSONError("not valid JSON: \(error.message(.text))")
        }
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONReadError> {
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 || (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            return .failure(JSONReadError(.notUTF8, at: 0))
        }
        var builder = Builder()
        do throws(JSONReadError) {
            return .success(try JSONScanner.read(bytes, into: &builder, maximumDepth: Self.maximumDepth, allowingByteOrderMark: true))
        } catch {
            return .failure(error)
        }
    }

    /// Reads JSON text given as a string; see ``init(jsonData:)``.
    public init(jsonString string: String) throws(JSONError) {
        try self.init(jsonUTF8: string.utf8)
    }

    /// Builds ``JSONValue``s for ``JSONScanner``: an object is a dictionary, so of a repeated
    /// key the last value counts.
    public struct Builder: JSONBuilder {
        /// The member of the top-level object whose size as sent is kept (a `serve` line's
        /// `payload`), or nil.
        public let measuring: String?
        /// The size as sent of ``measuring``'s value (the largest, when the key is written more
        /// than once), once read; nil when the object had no such member.
        public private(set) var sentSize: Int?

        /// A builder; `measuring` names a member of the top-level object whose size as sent
        /// (``sentSize``) it keeps.
        public init(measuring: String? = nil) {
            self.measuring = measuring
        }

        /// Keeps the size of ``measuring``'s value.
        public mutating func measured(_ key: String, sentBytes: Int) {
            if key == measuring { sentSize = max(sentSize ?? 0, sentBytes) }
        }

        @inlinable public func null() -> JSONValue { .null }
        @inlinable public func bool(_ value: Bool) -> JSONValue { .bool(value) }
        @inlinable public func integer(_ value: Int64) -> JSONValue { .integer(value) }
        @inlinable public func number(_ value: Double) -> JSONValue { .number(value) }
        @inlinable public func string(_ utf8: UnsafeBufferPointer<UInt8>) -> JSONValue { .string(String(decoding: utf8, as: UTF8.self)) }
        @inlinable public func key(_ utf8: UnsafeBufferPointer<UInt8>) -> String { String(decoding: utf8, as: UTF8.self) }
        @inlinable public func beginArray() -> [JSONValue] { [] }
        @inlinable public func append(_ element: JSONValue, to array: inout [JSONValue]) { array.append(element) }
        @inlinable public func endArray(_ array: [JSONValue]) -> JSONValue { .array(array) }
        /// Room for a few members at once: a payload's objects hold a handful, which would
        /// otherwise grow the dictionary twice.
        @inlinable public func beginObject() -> [String: JSONValue] { Dictionary(minimumCapacity: 4) }
        @inlinable public func add(_ value: JSONValue, for key: String, to object: inout [String: JSONValue]) { object[key] = value }
        @inlinable public func endObject(_ object: [String: JSONValue]) -> JSONValue { .object(object) }
    }
}
