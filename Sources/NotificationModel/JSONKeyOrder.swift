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
    /// Keys written first, in this order, when present (a key named twice counts once).
    public var first: [String] {
        didSet {
            first = Self.unique(first)
            preferred = Set(first)
        }
    }
    /// The order for the values under these keys.
    public var nested: [String: JSONKeyOrder]
    /// The keys of ``first``, to tell the others quickly.
    @usableFromInline private(set) var preferred: Set<String>
    /// Whether keys go as the dictionaries hold them (``unordered``).
    public private(set) var isUnordered = false

    /// Creates an order with preferred keys and orders for nested values.
    public init(first: [String] = [], nested: [String: JSONKeyOrder] = [:]) {
        self.first = Self.unique(first)
        preferred = Set(self.first)
        self.nested = nested
    }

    private static func unique(_ keys: [String]) -> [String] {
        var seen = Set<String>()
        return keys.filter { seen.insert($0).inserted }
    }

    /// Whether `a` comes before `b` among the keys written sorted: by their UTF-8 bytes.
    @usableFromInline
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.withUTF8Bytes { x in
            b.withUTF8Bytes { y in
                for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] }
                return x.count < y.count
            }
        }
    }

    /// Every object's keys sorted.
    public static let sorted = JSONKeyOrder()

    /// Every object's keys in the order its dictionary holds them, unsorted: for a sink that
    /// keeps no order (a ``JSONValue``, a Lua table), where sorting would be wasted.
    public static let unordered: JSONKeyOrder = {
        var order = JSONKeyOrder()
        order.isUnordered = true
        return order
    }()

    /// The order for the value under `key`.
    public func child(_ key: String) -> JSONKeyOrder {
        if isUnordered { return self }
        return nested.isEmpty ? .sorted : nested[key] ?? .sorted
    }

    /// `keys` in this order: the preferred keys that are present, then the rest sorted.
    public func arrange<Keys: Collection<String>>(_ keys: Keys) -> [String] {
        if first.isEmpty { return keys.sorted(by: Self.precedes) }
        var result: [String] = []
        result.reserveCapacity(keys.count)
        // `contains` of a dictionary's keys is a lookup, not a scan
        for key in first where keys.contains(key) {
            result.append(key)
        }
        if result.count < keys.count {
            result.append(contentsOf: keys.filter { !preferred.contains($0) }.sorted(by: Self.precedes))
        }
        return result
    }
}
