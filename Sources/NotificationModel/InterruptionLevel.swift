/// How urgently the system shows a notification (`UNNotificationInterruptionLevel`), spelled
/// as the payload's `aps.interruption-level` spells it.
public enum InterruptionLevel: String, Sendable, Hashable, CaseIterable, Codable {
    /// Added to the list without lighting the screen or playing a sound.
    case passive
    /// Shown at once, lighting the screen and playing a sound (the default).
    case active
    /// Shown at once, breaking through Focus.
    case timeSensitive = "time-sensitive"
    /// Shown at once, breaking through Focus and the mute switch.
    case critical
}
