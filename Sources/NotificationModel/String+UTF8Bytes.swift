extension String {
    /// Calls `body` with the string's UTF-8 bytes: in place for a native string (no copy of
    /// the string, so no reference to count), copied out for one that is not contiguous.
    @inlinable
    package func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
