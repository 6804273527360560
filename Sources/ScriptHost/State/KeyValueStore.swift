import Foundation
import NotificationModel
import Synchronization

/// A failure of the store, for a person.
struct StoreError: Error {
    let message: String
}

/// A small key-value store per app that outlives requests (SPEC "Store"), like an App Group's
/// shared defaults: strings, numbers (integers stay integers) and booleans, at most 64 KB per
/// app as compact JSON.
///
/// Without a state folder it lives in memory, shared by the app's requests in this process.
/// With one (`--state DIR`) it is the file `DIR/<app>.store.json`, a JSON object, shared with
/// every process that uses the folder: each write re-reads the file under an exclusive file
/// lock, changes it and replaces it, so `increment` is atomic across threads and processes
/// alike; reads re-read the file when it changed. A file that is not such an object is set
/// aside (`<file>.corrupt-<timestamp>`), reported to the request that found it, and the store
/// starts empty.
final class KeyValueStore: Sendable {
    /// The most bytes an app's store may hold (keys and values as compact JSON): SPEC's
    /// 64 KB, counted in thousands as SPEC counts MB (it writes KiB where it means 1024).
    static let maximumBytes = 64_000

    /// Where warnings for the request go (a host `warn` log entry).
    typealias Report = (String) -> Void

    let app: String
    /// The file, when the store persists.
    let file: StateFile?
    private let state = Mutex(Cache())

    private struct Cache {
        var values: [String: JSONValue] = [:]
        /// The size of `values` as compact JSON.
        var bytes = 2
        /// The file's bytes when last read or written: the same bytes need no parsing.
        var data: Data?
        /// The version of the file `values` came from.
        var signature: FileStamp?
        var loaded = false
    }

    init(app: String, directory: URL?) {
        self.app = app
        self.file = directory.map { StateFile(directory: $0, app: app, kind: "store") }
    }

    /// The value at `key`, nil when unset.
    func get(_ key: String, report: Report) throws(StoreError) -> JSONValue? {
        try state.withLock { (cache: inout Cache) throws(StoreError) -> JSONValue? in
            if let file, !cache.loaded || file.signature() != cache.signature {
                try Self.locked(file) { try self.reload(&cache, from: file, report: report) }
            }
            return cache.values[key]
        }
    }

    /// Sets or (with nil) deletes a value; refuses a write that would pass the size limit.
    func set(_ key: String, _ value: JSONValue?, report: Report) throws(StoreError) {
        _ = try update("set", report: report) { (values: inout [String: JSONValue]) throws(StoreError) in
            values[key] = value
            return 0
        }
    }

    /// Adds `by` to the number at `key` (0 when unset) atomically, the sum held within
    /// `bounds`; returns the new number.
    func increment(_ key: String, by: JSONValue, within bounds: ClosedBounds = ClosedBounds(), report: Report) throws(StoreError) -> JSONValue {
        try update("increment", report: report) { (values: inout [String: JSONValue]) throws(StoreError) -> JSONValue in
            var sum = try Self.add(values[key], by, key: key)
            if bounds.areIntegers, case .number(let d) = sum, case .integer = values[key] ?? .integer(0), case .integer = by {
                // an integer sum past 64 bits, with integer bounds: held at the end of the range
                sum = .integer(d < 0 ? .min : .max)
            }
            let next = bounds.clamp(sum)
            values[key] = next
            return next
        }
    }

    /// Changes the values; with a file, under its lock, from the file as it is now.
    private func update<T: Sendable>(
        _ function: String, report: Report, _ change: (inout [String: JSONValue]) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try state.withLock { (cache: inout Cache) throws(StoreError) -> T in
            guard let file else {
                var next = cache.values
                let result = try change(&next)
                cache.bytes = try Self.encode(next, previous: cache.bytes, function: function).count
                cache.values = next
                return result
            }
            return try Self.locked(file) { () throws -> T in
                try self.reload(&cache, from: file, report: report)
                var next = cache.values
                let result = try change(&next)
                let data = try Self.encode(next, previous: cache.bytes, function: function)
                cache.signature = try file.write(data)
                cache.data = data
                cache.values = next
                cache.bytes = data.count
                return result
            }
        }
    }

    /// Reads the file into the cache (under the lock): empty when there is none; set aside
    /// and reported when it is not a store.
    private func reload(_ cache: inout Cache, from file: StateFile, report: Report) throws {
        cache.loaded = true
        guard let (data, signature) = try file.readBytes() else {
            cache.values = [:]
            cache.bytes = 2
            cache.data = nil
            cache.signature = nil
            return
        }
        if data == cache.data {
            cache.signature = signature
            return
        }
        switch Self.decode(data) {
        case .success(let values):
            cache.values = values
            cache.bytes = data.count
            cache.data = data
            cache.signature = signature
        case .failure(let problem):
            let aside = try file.setAside()
            report("the store file \(file.url.path) is corrupt (\(problem.message)); it was set aside as \(aside) and the store starts empty")
            cache.values = [:]
            cache.bytes = 2
            cache.data = nil
            cache.signature = nil
        }
    }

    /// A store file's values, or what is wrong with it.
    static func decode(_ data: Data) -> Result<[String: JSONValue], StoreError> {
        let value: JSONValue
        do { value = try JSONValue(jsonData: data) } catch {
            return .failure(StoreError(message: error.message))
        }
        guard case .object(let values) = value else {
            return .failure(StoreError(message: "a JSON \(value.kindName) where an object of strings, numbers and booleans belongs"))
        }
        for (key, value) in values {
            switch value {
            case .string, .integer, .number, .bool: continue
            default: return .failure(StoreError(message: "the value of '\(key)' is a JSON \(value.kindName); a store holds strings, numbers and booleans"))
            }
        }
        return .success(values)
    }

    /// The values as compact JSON; refuses more than ``maximumBytes`` unless the store shrinks.
    static func encode(_ values: [String: JSONValue], previous: Int, function: String) throws(StoreError) -> Data {
        let data: Data
        do { data = try JSONValue.object(values).jsonData() } catch {
            throw StoreError(message: "store.\(function): \(error.message)")
        }
        if data.count > maximumBytes, data.count > previous {
            throw StoreError(message: "store.\(function): the store would hold \(data.count) bytes; an app's store holds at most \(maximumBytes) (64 KB), so delete keys with store.set(key, nil)")
        }
        return data
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

    /// Runs `body` under the file's lock, with file failures as store errors.
    private static func locked<T>(_ file: StateFile, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try file.withLock(body)
        } catch let error as StoreError {
            throw error
        } catch let error as StateFileError {
            throw StoreError(message: "store: \(error.message)")
        } catch {
            throw StoreError(message: "store: \(error)")
        }
    }
}

/// The bounds of `store.increment(key, by, {min =, max =})`: either may be absent.
struct ClosedBounds: Sendable {
    var min: JSONValue?
    var max: JSONValue?

    /// `value` when within the bounds, else the bound it passed. A sum that reaches a bound
    /// only as a float (an integer overflow to `2^63` against `max = math.maxinteger`) is
    /// the bound itself.
    func clamp(_ value: JSONValue) -> JSONValue {
        if let min, Self.less(value, min) { return min }
        if let max, Self.less(max, value) { return max }
        if case .number(let n) = value {
            for bound in [min, max] {
                if let bound, case .integer = bound, bound.doubleValue == n { return bound }
            }
        }
        return value
    }

    /// `a < b`: integers compared as integers (a double holds 53 bits), anything else as
    /// doubles.
    private static func less(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .integer(let x) = a, case .integer(let y) = b { return x < y }
        guard let x = a.doubleValue, let y = b.doubleValue else { return false }
        return x < y
    }

    /// Whether at least one bound is given and every bound given is an integer.
    var areIntegers: Bool {
        if min == nil && max == nil { return false }
        for bound in [min, max] {
            if let bound, case .integer = bound { continue }
            if bound != nil { return false }
        }
        return true
    }
}
