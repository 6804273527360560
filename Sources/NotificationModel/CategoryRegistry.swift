/// An app's notification categories: those it declares (a fixture's or `--categories`), which
/// are never dropped, and those its scripts register while running, of which the newest
/// ``maximumRegisteredCount`` are kept.
public struct CategoryRegistry: Sendable, Hashable, Codable {
    /// How many categories scripts may register before the oldest is dropped.
    public static let maximumRegisteredCount = 128

    /// The declared categories, in the order declared.
    public private(set) var declared: [NotificationCategory]
    /// The categories registered by scripts, oldest first.
    public private(set) var registered: [NotificationCategory]

    /// A registry holding declared categories (a later one replaces an earlier one of the
    /// same identifier).
    public init(declared: [NotificationCategory] = []) {
        self.declared = []
        self.registered = []
        for category in declared {
            declare(category)
        }
    }

    /// Declares a category, never to be dropped; one of the same identifier, declared or
    /// registered, is replaced.
    public mutating func declare(_ category: NotificationCategory) {
        registered.removeAll { $0.identifier == category.identifier }
        if let index = declared.firstIndex(where: { $0.identifier == category.identifier }) {
            declared[index] = category
        } else {
            declared.append(category)
        }
    }

    /// Registers a category as a script does (`categories.register`). A declared category of
    /// the same identifier is replaced and stays declared; otherwise the category becomes the
    /// newest registered one, replacing one of the same identifier, and when more than
    /// ``maximumRegisteredCount`` are registered the oldest is dropped.
    ///
    /// - Returns: The category dropped to make room, if any.
    @discardableResult
    public mutating func register(_ category: NotificationCategory) -> NotificationCategory? {
        if let index = declared.firstIndex(where: { $0.identifier == category.identifier }) {
            declared[index] = category
            return nil
        }
        registered.removeAll { $0.identifier == category.identifier }
        registered.append(category)
        guard registered.count > Self.maximumRegisteredCount else { return nil }
        return registered.removeFirst()
    }

    /// Removes the registered category of this identifier (`categories.remove`). Declared
    /// categories are the app's own and are never removed.
    ///
    /// - Returns: Whether a registered category was removed.
    @discardableResult
    public mutating func remove(_ identifier: String) -> Bool {
        guard let index = registered.firstIndex(where: { $0.identifier == identifier }) else { return false }
        registered.remove(at: index)
        return true
    }

    /// Whether the category of this identifier is one the app declared.
    public func isDeclared(_ identifier: String) -> Bool {
        declared.contains { $0.identifier == identifier }
    }

    /// Whether a category of this identifier is declared or registered.
    public func has(_ identifier: String) -> Bool {
        get(identifier) != nil
    }

    /// The category of this identifier, declared or registered.
    public func get(_ identifier: String) -> NotificationCategory? {
        declared.first { $0.identifier == identifier } ?? registered.first { $0.identifier == identifier }
    }

    /// The identifiers of every category, sorted.
    public func list() -> [String] {
        (declared + registered).map(\.identifier).sorted()
    }

    private enum CodingKeys: String, CodingKey {
        case declared, registered
    }

    /// Decodes a registry, applying the rules again: duplicates replaced, the registered
    /// ones capped at ``maximumRegisteredCount`` (the oldest dropped).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(declared: try container.decodeIfPresent([NotificationCategory].self, forKey: .declared) ?? [])
        for category in try container.decodeIfPresent([NotificationCategory].self, forKey: .registered) ?? [] {
            register(category)
        }
    }

    /// Every category, declared ones first.
    public var all: [NotificationCategory] {
        declared + registered
    }
}
