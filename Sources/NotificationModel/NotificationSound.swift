/// The sound a notification plays (`UNNotificationSound`), in the two forms a payload's
/// `aps.sound` takes.
public enum NotificationSound: Sendable, Hashable, Codable {
    /// A sound by name: `"default"` for the system sound, or a file in the app's bundle.
    case named(String)
    /// The dictionary form: a named sound, whether it is a critical alert, and its volume
    /// (0…1; nil for the system's choice).
    case dictionary(name: String, critical: Bool, volume: Double?)

    /// The sound's name, in either form.
    public var name: String {
        switch self {
        case .named(let name): name
        case .dictionary(let name, _, _): name
        }
    }

    /// The sound as the result shows it: the name, or `{name, critical, volume}` with
    /// `critical` a boolean and `volume` left out when nil.
    public var jsonValue: JSONValue {
        switch self {
        case .named(let name):
            return .string(name)
        case .dictionary(let name, let critical, let volume):
            var members: [String: JSONValue] = ["name": .string(name), "critical": .bool(critical)]
            if let volume { members["volume"] = .number(volume) }
            return .object(members)
        }
    }

    /// The order in which the dictionary form of ``jsonValue`` is written.
    public static let jsonKeyOrder = JSONKeyOrder(first: ["name", "critical", "volume"])

    /// The sound of a payload's `aps.sound` (already checked); nil for anything else.
    init?(apsSound value: JSONValue) {
        switch value {
        case .string(let name):
            self = .named(name)
        case .object(let members):
            guard let name = members["name"]?.stringValue else { return nil }
            self = .dictionary(name: name, critical: members["critical"]?.integerValue == 1, volume: members["volume"]?.doubleValue)
        default:
            return nil
        }
    }
}
