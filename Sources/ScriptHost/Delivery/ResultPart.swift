import NotificationModel

/// A part of the result that a module of the script API records during a request and writes
/// itself: `http.post`'s `posts`, `categories.register`'s `registeredCategories` and
/// `categories`. The request holds one of each kind (``ResultParts``), the module records into
/// it within the request's record budget (``RequestRun/record(_:in:_:)``), and the result's
/// writer writes each in its place, so that a module with a result is one folder.
package protocol ResultPart: Sendable {
    /// The part of a request that recorded nothing; it is written too (`"posts": []`).
    init()
    /// Writes the part's members into the result object: a key and a value each.
    func writeMembers(into result: inout some JSONSink)
}

/// The parts of a result, one of each kind, in the order the result writes them.
package struct ResultParts: Sendable {
    /// The kinds of part, in the order the result writes them (after `script`).
    static let kinds: [any ResultPart.Type] = [RegisteredCategories.self, PostRecords.self]

    /// One part of each kind once a module recorded one; nil while none did (every part
    /// empty). Nothing is shared between requests: a part common to all of them would be
    /// retained and released by each, from every thread.
    private var parts: [any ResultPart]?

    /// The part of this kind.
    package subscript<Part: ResultPart>(_ kind: Part.Type) -> Part {
        get {
            for part in parts ?? [] {
                if let part = part as? Part { return part }
            }
            return Part()
        }
        set {
            var all = parts ?? Self.kinds.map { $0.init() }
            guard let index = all.firstIndex(where: { $0 is Part }) else { return }
            parts = nil  // (let go first, so that `all` is changed in place)
            all[index] = newValue
            parts = all
        }
    }

    /// Writes every part's members, in order (each kind's empty part while none recorded).
    func writeMembers(into sink: inout some JSONSink) {
        if let parts {
            for part in parts { part.writeMembers(into: &sink) }
        } else {
            for kind in Self.kinds { kind.init().writeMembers(into: &sink) }
        }
    }
}
