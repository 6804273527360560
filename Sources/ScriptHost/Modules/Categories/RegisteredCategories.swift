import NotificationModel

/// The categories a request registered, whole, in order, one per identifier (the last
/// registration replacing an earlier one in place): the result's `registeredCategories` and
/// `categories`.
package struct RegisteredCategories: ResultPart {
    /// The categories.
    package private(set) var categories: [NotificationCategory] = []
    /// The bytes each of ``categories`` counts for in the record budget.
    private var sizes: [Int] = []
    /// Where each identifier is in ``categories``.
    private var index: [String: Int] = [:]

    /// None registered.
    package init() {}

    /// Records `category`, `bytes` large, within `budget`; the refusal when it does not fit.
    mutating func register(_ category: NotificationCategory, bytes: Int, within budget: inout RecordBudget) -> RequestRun.Recording {
        if let at = index[category.identifier] {
            if let refusal = budget.take(bytes, for: "registering '\(category.identifier)' again", freeing: sizes[at]) {
                return .refused(refusal)
            }
            categories[at] = category
            sizes[at] = bytes
        } else {
            if let refusal = budget.take(bytes, for: "registering '\(category.identifier)'") { return .refused(refusal) }
            index[category.identifier] = categories.count
            categories.append(category)
            sizes.append(bytes)
        }
        return .recorded
    }

    /// Writes `"registeredCategories": [identifiers], "categories": [categories]`.
    package func writeMembers(into result: inout some JSONSink) {
        // plain loops: a part is written through its protocol, where a generic sequence of
        // the sink's would be looked up at every call
        result.key(literal: "registeredCategories")
        result.beginArray()
        for category in categories { result.write(string: category.identifier) }
        result.endArray()
        result.key(literal: "categories")
        result.beginArray()
        for category in categories { category.write(into: &result) }
        result.endArray()
    }
}

extension DeliveryResult {
    /// The identifiers of the categories the request registered, in order.
    public var registeredCategories: [String] { parts[RegisteredCategories.self].categories.map(\.identifier) }

    /// The categories the request registered, whole (actions with titles, options, icons,
    /// text input), in order.
    public var categories: [NotificationCategory] { parts[RegisteredCategories.self].categories }
}
