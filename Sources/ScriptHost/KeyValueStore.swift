import Foundation
import NotificationModel
import Synchronization

/// A failure of the store, for a person.
struct StoreError: Error {
    let message: String
}

/// A small key-value store per app that outlives requests (SPEC "Store"): strings, numbers and
/// booleans, at most 64 KB per app.
final class KeyValueStore: Sendable {
    /// The most bytes an app's store may hold (keys and values as JSON).
    static let maximumBytes = 64 * 1024

    let app: String
    private let values = Mutex<[String: JSONValue]>([:])

    init(app: String, directory: URL?) {
        self.app = app
    }

    func get(_ key: String) -> JSONValue? { values.withLock { $0[key] } }

    /// Sets or (with nil) deletes a value; refuses a write that would pass the size limit.
    func set(_ key: String, _ value: JSONValue?) throws(StoreError) {
        try values.withLock { (values: inout [String: JSONValue]) throws(StoreError) in
            var next = values
            next[key] = value
            try Self.checkSize(next)
            values = next
        }
    }

    /// Adds `by` to the number at `key` (0 when unset) atomically; returns the new number.
    func increment(_ key: String, by: JSONValue) throws(StoreError) -> JSONValue {
        try values.withLock { (values: inout [String: JSONValue]) throws(StoreError) -> JSONValue in
            let next = try Self.add(values[key], by, key: key)
            var updated = values
            updated[key] = next
            try Self.checkSize(updated)
            values = updated
            return next
        }
    }

    static func add(_ current: JSONValue?, _ by: JSONValue, key: String) throws(StoreError) -> JSONValue {
        let base = current ?? .integer(0)
        switch (base, by) {
        case (.integer(let a), .integer(let b)):
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .number(Double(a) + Double(b)) : .integer(sum)
        case (.integer, .number), (.number, .integer), (.number, .number):
            return .number((base.doubleValue ?? 0) + (by.doubleValue ?? 0))
        default:
            throw StoreError(message: "store.increment: the value at '\(key)' is a \(base.kindName), not a number")
        }
    }

    static func checkSize(_ values: [String: JSONValue]) throws(StoreError) {
        let size = (try? JSONValue.object(values).jsonData().count) ?? 0
        if size > maximumBytes {
            throw StoreError(message: "store is full: writing this would take it to \(size) bytes; an app's store holds at most \(maximumBytes) bytes")
        }
    }
}
