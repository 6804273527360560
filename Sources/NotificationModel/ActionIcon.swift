/// The image of an action's button (`UNNotificationActionIcon`): an SF Symbol by its system
/// name, or an image of the app's asset catalog by its name.
public enum ActionIcon: Sendable, Hashable {
    /// `UNNotificationActionIcon(systemImageName:)`: `{system = "trash"}`.
    case system(String)
    /// `UNNotificationActionIcon(templateImageName:)`: `{template = "reply-icon"}`.
    case template(String)

    /// The icon as JSON: `{"system": NAME}` or `{"template": NAME}`.
    public var jsonValue: JSONValue {
        switch self {
        case .system(let name): .object(["system": .string(name)])
        case .template(let name): .object(["template": .string(name)])
        }
    }
}
