// Declarations of Apple's UserNotifications as its documentation gives them, for
// type-checking only.
import Foundation

/// The name of a sound file.
public struct UNNotificationSoundName: Hashable, RawRepresentable, @unchecked Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The sound played when a notification is delivered.
open class UNNotificationSound: NSObject {
    required override public init() {}

    open class var `default`: UNNotificationSound { UNNotificationSound() }
    open class var defaultCritical: UNNotificationSound { UNNotificationSound() }

    public convenience init(named name: UNNotificationSoundName) { self.init() }

    open class func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float) -> Self { Self() }
    open class func defaultCriticalSound(withAudioVolume volume: Float) -> Self { Self() }
}
