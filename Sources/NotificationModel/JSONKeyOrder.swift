/// The order in which the JSON writer puts the keys of objects.
///
/// Keys named in ``first`` come first, in the order given; all other keys follow, sorted by
/// their Unicode code points (the order of their UTF-8 bytes). ``nested`` gives the order for
/// the value under a key; an array passes its order on to its elements, and keys without a
/// nested order are written sorted all the way down.
///
/// ```swift
/// let order = JSONKeyOrder(first: ["outcome", "content"],
///                          nested: ["content": JSONKeyOrder(first: ["title", "body"])])
/// ```
public struct JSONKeyOrder: Sendable, Hashable {
    /// Keys written first, in this order, when present.
    public var first: [String]
    /// The order for the values under these keys.
    public var nested: [String: JSONKeyOrder]

    /// Creates an order with preferred keys and orders for nested values.
    public init(first: [String] = [], nested: [String: JSONKeyOrder] = [:]) {
        self.first = first
        self.nested = nested
    }

    /// Every object's keys sorted.
    public static let sorted = JSONKeyOrder()

    /// The order for the value under `key`.
    public func child(_ key: String) -> JSONKeyOrder {
        nested[key] ?? .sorted
    }

    /// `keys` in this order: the preferred keys that are present, then the rest sorted.
    public func arrange<Keys: Collection<String>>(_ keys: Keys) -> [String] {
        let byCodePoint: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if first.isEmpty { return keys.sorted(by: byCodePoint) }
        var result: [String] = []
        result.reserveCapacity(keys.count)
        // `contains` of a dictionary's keys is a lookup, not a scan
        for key in first where keys.contains(key) && !result.contains(key) {
            result.append(key)
        }
        if result.count < keys.count {
            result.append(contentsOf: keys.filter { !first.contains($0) }.sorted(by: byCodePoint))
        }
        return result
    }
}
