#if canImport(UserNotifications)
import CoreGraphics
import Foundation
import NotificationModel
import UserNotifications

extension NotificationServiceAdapter {
    /// The system's attachment for one of the result's: its identifier and file, its type as
    /// the type hint, and its thumbnail options. Nil when the system refuses the file.
    ///
    /// The system moves an attached file into its own store once the content is handed over;
    /// until then the file is the caller's (see `DeliveryResult.attachmentFiles`).
    public static func attachment(_ attachment: NotificationAttachment) -> UNNotificationAttachment? {
        guard let url = URL(string: attachment.url), url.isFileURL else { return nil }
        return try? UNNotificationAttachment(identifier: attachment.identifier, url: url, options: attachmentOptions(attachment))
    }

    /// The options dictionary of an attachment: always the type hint (the uniform type
    /// identifier the host found), then each thumbnail option the script set.
    static func attachmentOptions(_ attachment: NotificationAttachment) -> [AnyHashable: Any] {
        var options: [AnyHashable: Any] = [UNNotificationAttachmentOptionsTypeHintKey: attachment.type]
        if let hidden = attachment.options.thumbnailHidden {
            options[UNNotificationAttachmentOptionsThumbnailHiddenKey] = NSNumber(value: hidden)
        }
        if let rect = attachment.options.thumbnailClippingRect {
            options[UNNotificationAttachmentOptionsThumbnailClippingRectKey] =
                CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height).dictionaryRepresentation
        }
        if let time = attachment.options.thumbnailTime {
            options[UNNotificationAttachmentOptionsThumbnailTimeKey] = NSNumber(value: time)
        }
        return options
    }
}
#endif
