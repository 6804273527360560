import Foundation
import NotificationModel
import Synchronization

/// An app's categories: those it declares (`--categories`, a fixture's `categories`), which are
/// never dropped, and those its scripts register, of which the newest 128 are kept
/// (``CategoryRegistry``).
///
/// Without a state folder, registrations live in memory for the life of the host. With one
/// (`--state DIR`) they are the file `DIR/<app>.categories.json`,
/// `{"registered": [category, ...]}` oldest first, shared with every process that uses the
/// folder: a registration re-reads the file under an exclusive file lock, adds itself and
/// replaces the file, so no process loses another's registrations; reads pick up the file
/// again when it changed. Declared categories are never written: each process declares its
/// own. A file that is not such a list is set aside (`<file>.corrupt-<timestamp>`) and
/// reported to the request that found it.
final class CategoryStore: Sendable {
    /// Where warnings for the request go (a host `warn` log entry).
    typealias Report = (String) -> Void

    /// The file, when registrations persist.
    let file: StateFile?
    private let state: Mutex<State>

    private struct Persisted {
        let category: NotificationCategory
        let json: Data

        init(_ category: NotificationCategory) {
            self.category = category
            self.json = (try? category.jsonValue.jsonData()) ?? Data("{}".utf8)
        }
    }

    private struct State {
        var registry: CategoryRegistry
        /// What this process declared, in order (a later one of an identifier replaces it).
        var declared: [NotificationCategory]
        /// The registrations the file held when last read or written, oldest first, each with
        /// its compact JSON (so a registration encodes only itself).
        var persisted: [Persisted] = []
        /// The file's bytes when last read or written: the same bytes need no parsing.
        var bytes: Data?
        var signature: FileStamp?
        var loaded = false
    }

    init(app: String, directory: URL?, declared: [NotificationCategory]) {
        file = directory.map { StateFile(directory: $0, app: app, kind: "categories") }
        state = Mutex(State(registry: CategoryRegistry(declared: declared), declared: declared))
    }

    /// Declares categories (never dropped, never written to the state file).
    func declare(_ categories: [NotificationCategory]) {
        guard !categories.isEmpty else { return }
        state.withLock { s in
            for category in categories {
                s.registry.declare(category)
                s.declared.removeAll { $0.identifier == category.identifier }
                s.declared.append(category)
            }
        }
    }

    /// Reads the registry, as the state file has it now.
    func read<T>(report: Report = { _ in }, _ body: (CategoryRegistry) -> T) -> T {
        state.withLock { s in
            if let file, !s.loaded || file.signature() != s.signature {
                do {
                    try file.withLock {
                        let list = try load(file, known: s, report: report)
                        let changed = !s.loaded || list.bytes != s.bytes
                        s.persisted = list.categories
                        s.bytes = list.bytes
                        s.signature = list.signature
                        s.loaded = true
                        if changed { rebuild(&s) }
                    }
                } catch {
                    report("categories: \(Self.message(error)); the categories registered in this process are used")
                }
            }
            return body(s.registry)
        }
    }

    /// Registers (or replaces) a category. With a state file, it is added to the file under its
    /// lock; when that fails, it is registered in this process only, and `report` says so.
    /// When the registered categories pass ``CategoryRegistry/maximumRegisteredCount``, the
    /// oldest registered one is removed, and `report` says which.
    func register(_ category: NotificationCategory, report: Report = { _ in }) {
        state.withLock { s in
            guard let file else {
                if let dropped = s.registry.register(category) { report(Self.pruned(dropped.identifier)) }
                return
            }
            do {
                try file.withLock {
                    let list = try load(file, known: s, report: report)
                    let changedElsewhere = !s.loaded || list.bytes != s.bytes
                    var persisted = list.categories
                    persisted.removeAll { $0.category.identifier == category.identifier }
                    persisted.append(Persisted(category))
                    if persisted.count > CategoryRegistry.maximumRegisteredCount {
                        let excess = persisted.count - CategoryRegistry.maximumRegisteredCount
                        for entry in persisted.prefix(excess) { report(Self.pruned(entry.category.identifier)) }
                        persisted.removeFirst(excess)
                    }
                    let data = Self.fileData(persisted)
                    s.signature = try file.write(data)
                    s.bytes = data
                    s.persisted = persisted
                    s.loaded = true
                    if changedElsewhere { rebuild(&s) } else { s.registry.register(category) }
                }
            } catch {
                if let dropped = s.registry.register(category) { report(Self.pruned(dropped.identifier)) }
                report("categories: \(Self.message(error)); '\(category.identifier)' is registered in this process only")
            }
        }
    }

    /// The host's log line for a registered category removed to make room.
    static func pruned(_ identifier: String) -> String {
        "categories: '\(identifier)' was removed, the oldest of \(CategoryRegistry.maximumRegisteredCount) registered categories (an app keeps at most \(CategoryRegistry.maximumRegisteredCount); declared ones are never removed)"
    }

    /// Removes a registered category (declared ones stay). With a state file, it is removed
    /// from the file under its lock. Returns whether one was removed.
    func remove(_ identifier: String, report: Report = { _ in }) -> Bool {
        state.withLock { s in
            guard let file else { return s.registry.remove(identifier) }
            do {
                return try file.withLock {
                    let list = try load(file, known: s, report: report)
                    var persisted = list.categories
                    guard let index = persisted.firstIndex(where: { $0.category.identifier == identifier }) else {
                        s.persisted = persisted
                        s.bytes = list.bytes
                        s.signature = list.signature
                        s.loaded = true
                        rebuild(&s)
                        return false
                    }
                    persisted.remove(at: index)
                    let data = Self.fileData(persisted)
                    s.signature = try file.write(data)
                    s.bytes = data
                    s.persisted = persisted
                    s.loaded = true
                    rebuild(&s)
                    return true
                }
            } catch {
                report("categories: \(Self.message(error)); '\(identifier)' is removed in this process only")
                return s.registry.remove(identifier)
            }
        }
    }

    /// The declared categories, then the persisted registrations in order.
    private func rebuild(_ s: inout State) {
        var registry = CategoryRegistry(declared: s.declared)
        for entry in s.persisted { registry.register(entry.category) }
        s.registry = registry
    }

    /// The file's registrations (under the lock): none when there is no file; a corrupt file
    /// is set aside and reported, and counts as none. Bytes the store knows are not parsed again.
    private func load(
        _ file: StateFile, known: State, report: Report
    ) throws -> (categories: [Persisted], bytes: Data?, signature: FileStamp?) {
        guard let (data, signature) = try file.readBytes() else { return ([], nil, nil) }
        if known.loaded, data == known.bytes { return (known.persisted, data, signature) }
        switch Self.decode(data) {
        case .success(let categories):
            return (categories.map(Persisted.init), data, signature)
        case .failure(let problem):
            let aside = try file.setAside()
            report("the categories file \(file.url.path) is corrupt (\(problem.message)); it was set aside as \(aside) and its registrations are dropped")
            return ([], nil, nil)
        }
    }

    /// A categories file's registrations, or what is wrong with it.
    static func decode(_ data: Data) -> Result<[NotificationCategory], StoreError> {
        let value: JSONValue
        do { value = try JSONValue(jsonData: data) } catch {
            return .failure(StoreError(message: error.message))
        }
        guard case .object(let members) = value, let list = members["registered"]?.arrayValue else {
            return .failure(StoreError(message: "not an object {\"registered\": [...]}"))
        }
        var categories: [NotificationCategory] = []
        for (index, element) in list.enumerated() {
            do { categories.append(try NotificationCategory(json: element)) } catch {
                return .failure(StoreError(message: "registered[\(index)]: \(error.message)"))
            }
        }
        return .success(categories)
    }

    /// The file's text: `{"registered":[...]}`, compact, oldest first.
    private static func fileData(_ persisted: [Persisted]) -> Data {
        var data = Data("{\"registered\":[".utf8)
        for (index, entry) in persisted.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(entry.json)
        }
        data.append(contentsOf: Array("]}".utf8))
        return data
    }

    private static func message(_ error: any Error) -> String {
        if let e = error as? StateFileError { return e.message }
        if let e = error as? JSONError { return e.message }
        return "\(error)"
    }
}
