// Declarations of Apple's UserNotifications as its documentation gives them, for
// type-checking only.
import Foundation

/// A notification as the system hands it to the extension.
open class UNNotificationRequest: NSObject {
    open private(set) var identifier: String
    open private(set) var content: UNNotificationContent

    init(identifier: String, content: UNNotificationContent) {
        self.identifier = identifier
        self.content = content
    }
}

/// The entry point of a Notification Service Extension.
open class UNNotificationServiceExtension: NSObject {
    public override init() {}
    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {}
    open func serviceExtensionTimeWillExpire() {}
}
