/// The image of an action's button (`UNNotificationActionIcon`): an SF Symbol by its system
/// name, or an image of the app's asset catalog by its name.
public enum ActionIcon: Sendable, Hashable, JSONWritable {
    /// `UNNotificationActionIcon(systemImageName:)`: `{system = "trash"}`.
    case system(String)
    /// `UNNotificationActionIcon(templateImageName:)`: `{template = "reply-icon"}`.
    case template(String)

    /// Writes the icon: `{"system": NAME}` or `{"template": NAME}`.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        switch self {
        case .system(let name):
            sink.key(literal: "system")
            sink.write(string: name)
        case .template(let name):
            sink.key(literal: "template")
            sink.write(string: name)
        }
        sink.endObject()
    }
}
