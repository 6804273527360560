#if canImport(UserNotifications)
import Foundation
import NotificationModel
import ScriptHost
import UserNotifications

extension NotificationServiceAdapter {
    /// The content to hand the system for a result: an empty `UNNotificationContent()` when
    /// the script suppressed the notification, else a `UNMutableNotificationContent` with
    /// every field of the result's content and its attachments (an attachment the system
    /// refuses is left out).
    public static func content(for result: DeliveryResult) -> UNNotificationContent {
        makeContent(for: result).content
    }

    /// The content for a result, and the files of the attachments left out of it (refused by
    /// the system, or all of them when the notification is suppressed), which nobody will take.
    static func makeContent(for result: DeliveryResult) -> (content: UNNotificationContent, unattached: [URL]) {
        guard !result.suppressed else { return (UNNotificationContent(), result.attachmentFiles) }
        let source = result.content
        let content = UNMutableNotificationContent()
        content.title = source.title
        content.subtitle = source.subtitle
        content.body = source.body
        content.badge = source.badge.map { NSNumber(value: $0) }
        content.sound = source.sound.map(sound)
        content.categoryIdentifier = source.categoryIdentifier
        content.threadIdentifier = source.threadIdentifier
        content.targetContentIdentifier = source.targetContentIdentifier
        content.interruptionLevel = interruptionLevel(source.interruptionLevel)
        content.relevanceScore = source.relevanceScore
        content.filterCriteria = source.filterCriteria
        content.launchImageName = source.launchImageName
        DeprecatedFields.setSummary(on: content, argument: source.summaryArgument, count: source.summaryArgumentCount)
        content.userInfo = userInfo(source.userInfo)
        var unattached: [URL] = []
        content.attachments = source.attachments.compactMap { attachment in
            if let made = self.attachment(attachment) { return made }
            if let url = URL(string: attachment.url), url.isFileURL { unattached.append(url) }
            return nil
        }
        return (content, unattached)
    }

    /// The sound: `default` is the system's sound; the dictionary form with `critical` is a
    /// critical alert at its volume (full volume when it names none).
    static func sound(_ sound: NotificationSound) -> UNNotificationSound {
        switch sound {
        case .named("default"), .dictionary("default", false, _):
            return .default
        case .named(let name), .dictionary(let name, false, _):
            return UNNotificationSound(named: UNNotificationSoundName(name))
        case .dictionary(let name, true, let volume):
            let level = Float(volume ?? 1)
            return name == "default"
                ? .defaultCriticalSound(withAudioVolume: level)
                : .criticalSoundNamed(UNNotificationSoundName(name), withAudioVolume: level)
        }
    }

    /// The interruption level by the same name.
    static func interruptionLevel(_ level: InterruptionLevel) -> UNNotificationInterruptionLevel {
        switch level {
        case .passive: .passive
        case .active: .active
        case .timeSensitive: .timeSensitive
        case .critical: .critical
        }
    }

    /// The payload as the app receives it: JSON read back by `JSONSerialization`, so numbers
    /// are `NSNumber`s and `null` is `NSNull`, as in the `userInfo` the system gave.
    static func userInfo(_ value: [String: JSONValue]) -> [AnyHashable: Any] {
        guard let data = try? JSONValue.object(value).jsonData(),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object
    }
}
#endif
