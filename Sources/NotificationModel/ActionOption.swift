/// An option of an action (`UNNotificationActionOptions`), by the name scripts and fixtures use.
public enum ActionOption: String, Sendable, Hashable, CaseIterable, Codable {
    /// The action opens the app.
    case foreground
    /// The action is shown as destructive.
    case destructive
    /// The action needs the device unlocked.
    case authenticationRequired
}
