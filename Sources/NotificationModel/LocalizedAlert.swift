/// The localized keys of a payload's `aps.alert` (`title-loc-key`, `title-loc-args`,
/// `subtitle-loc-key`, `subtitle-loc-args`, `loc-key`, `loc-args`), resolved against a strings
/// table as iOS resolves them against the app's `Localizable.strings`.
public struct LocalizedAlert: Sendable, Hashable {
    /// The key of the title, or nil.
    public var titleKey: String?
    /// The arguments of the title's format.
    public var titleArguments: [String]
    /// The key of the subtitle, or nil.
    public var subtitleKey: String?
    /// The arguments of the subtitle's format.
    public var subtitleArguments: [String]
    /// The key of the body (`loc-key`), or nil.
    public var bodyKey: String?
    /// The arguments of the body's format (`loc-args`).
    public var bodyArguments: [String]

    /// Creates localized keys and their arguments.
    public init(
        titleKey: String? = nil, titleArguments: [String] = [],
        subtitleKey: String? = nil, subtitleArguments: [String] = [],
        bodyKey: String? = nil, bodyArguments: [String] = []
    ) {
        self.titleKey = titleKey
        self.titleArguments = titleArguments
        self.subtitleKey = subtitleKey
        self.subtitleArguments = subtitleArguments
        self.bodyKey = bodyKey
        self.bodyArguments = bodyArguments
    }

    /// The localized keys of an `aps.alert` value; nil when it is not a dictionary or has no
    /// localized key. (A checked payload's arguments are strings; anything else counts as `""`.)
    public init?(alert: JSONValue) {
        guard case .object(let members) = alert else { return nil }
        func arguments(_ key: String) -> [String] {
            members[key]?.arrayValue?.map { $0.stringValue ?? "" } ?? []
        }
        self.init(
            titleKey: members["title-loc-key"]?.stringValue, titleArguments: arguments("title-loc-args"),
            subtitleKey: members["subtitle-loc-key"]?.stringValue, subtitleArguments: arguments("subtitle-loc-args"),
            bodyKey: members["loc-key"]?.stringValue, bodyArguments: arguments("loc-args")
        )
        if titleKey == nil && subtitleKey == nil && bodyKey == nil { return nil }
    }

    /// The texts the keys give: each key looked up in `strings` (a missing key is its own
    /// format, as on iOS) and formatted with its arguments; nil for a part without a key.
    public func resolved(strings: [String: String]) -> (title: String?, subtitle: String?, body: String?) {
        func text(_ key: String?, _ arguments: [String]) -> String? {
            key.map { Self.format(strings[$0] ?? $0, arguments: arguments) }
        }
        return (text(titleKey, titleArguments), text(subtitleKey, subtitleArguments), text(bodyKey, bodyArguments))
    }
}
