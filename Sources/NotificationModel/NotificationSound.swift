/// The sound a notification plays (`UNNotificationSound`), in the two forms a payload's
/// `aps.sound` takes.
public enum NotificationSound: Sendable, Hashable, Codable, JSONWritable {
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

    /// Writes the sound as the result shows it: the name, or `{name, critical, volume}` with
    /// `critical` a boolean and `volume` left out when nil.
    public func write(into sink: inout some JSONSink) {
        switch self {
        case .named(let name):
            sink.write(string: name)
        case .dictionary(let name, let critical, let volume):
            sink.beginObject()
            sink.key(literal: "name")
            sink.write(string: name)
            sink.key(literal: "critical")
            sink.write(bool: critical)
            if let volume {
                sink.key(literal: "volume")
                sink.write(number: volume)
            }
            sink.endObject()
        }
    }

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
