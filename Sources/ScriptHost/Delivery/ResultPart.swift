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

    /// Every kind's empty part, made once: a request's parts begin as a copy of it.
    private static let empty: [any ResultPart] = kinds.map { $0.init() }

    private var parts: [any ResultPart] = ResultParts.empty

    /// The part of this kind.
    package subscript<Part: ResultPart>(_ kind: Part.Type) -> Part {
        get {
            for part in parts {
                if let part = part as? Part { return part }
            }
            return Part()
        }
        set {
            guard let index = parts.firstIndex(where: { $0 is Part }) else { return }
            parts[index] = newValue
        }
    }

    /// Writes every part's members, in order.
    func writeMembers(into sink: inout some JSONSink) {
        for part in parts { part.writeMembers(into: &sink) }
    }
}
