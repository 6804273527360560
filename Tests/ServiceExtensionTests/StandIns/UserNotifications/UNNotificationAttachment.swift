// Declarations of Apple's UserNotifications as its documentation gives them, for
// type-checking only.
import Foundation

/// A hint about an attachment's file type: a uniform type identifier.
public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"
/// Whether the system hides the attachment's thumbnail (a Boolean `NSNumber`).
public let UNNotificationAttachmentOptionsThumbnailHiddenKey = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
/// The thumbnail's clipping rectangle, in unit coordinates (a `CGRect` dictionary representation).
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
/// The frame of an animated image, or the time of a video, shown as the thumbnail.
public let UNNotificationAttachmentOptionsThumbnailTimeKey = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// A media file attached to a notification.
open class UNNotificationAttachment: NSObject {
    open private(set) var identifier: String
    open private(set) var url: URL
    open private(set) var type: String

    init(identifier: String, url: URL, type: String) {
        self.identifier = identifier
        self.url = url
        self.type = type
    }

    public convenience init(identifier: String, url URL: URL, options: [AnyHashable: Any]? = nil) throws {
        self.init(identifier: identifier, url: URL, type: options?[UNNotificationAttachmentOptionsTypeHintKey] as? String ?? "")
    }
}
