// Declarations of Apple's UserNotifications as its documentation gives them, for
// type-checking only.
import Foundation

/// How a category's notifications behave.
public struct UNNotificationCategoryOptions: OptionSet, @unchecked Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    @available(macOS, unavailable)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    @available(iOS, deprecated: 15.0, message: "Announcement is always allowed.")
    @available(macOS, unavailable)
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// A type of notification and the actions it shows.
open class UNNotificationCategory: NSObject {
    open private(set) var identifier: String
    open private(set) var actions: [UNNotificationAction]
    open private(set) var intentIdentifiers: [String]
    open private(set) var hiddenPreviewsBodyPlaceholder: String
    open private(set) var categorySummaryFormat: String
    open private(set) var options: UNNotificationCategoryOptions

    init(
        _ identifier: String, _ actions: [UNNotificationAction], _ intentIdentifiers: [String], _ placeholder: String,
        _ format: String, _ options: UNNotificationCategoryOptions
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = placeholder
        self.categorySummaryFormat = format
        self.options = options
    }

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], options: UNNotificationCategoryOptions = []
    ) {
        self.init(identifier, actions, intentIdentifiers, "", "", options)
    }

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String?,
        categorySummaryFormat: String?, options: UNNotificationCategoryOptions = []
    ) {
        self.init(identifier, actions, intentIdentifiers, hiddenPreviewsBodyPlaceholder ?? "", categorySummaryFormat ?? "", options)
    }
}

/// How an action behaves.
public struct UNNotificationActionOptions: OptionSet, @unchecked Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

/// The image of an action's button (iOS 15).
open class UNNotificationActionIcon: NSObject {
    override init() {}
    public convenience init(systemImageName: String) { self.init() }
    public convenience init(templateImageName: String) { self.init() }
}

/// A button of a category.
open class UNNotificationAction: NSObject {
    open private(set) var identifier: String
    open private(set) var title: String
    open private(set) var options: UNNotificationActionOptions
    open private(set) var icon: UNNotificationActionIcon?

    init(_ identifier: String, _ title: String, _ options: UNNotificationActionOptions, _ icon: UNNotificationActionIcon?) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
    }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier, title, options, nil)
    }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?) {
        self.init(identifier, title, options, icon)
    }
}

/// A button that takes text.
open class UNTextInputNotificationAction: UNNotificationAction {
    open private(set) var textInputButtonTitle = ""
    open private(set) var textInputPlaceholder = ""

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.init(identifier, title, options, nil)
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
    }

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?,
        textInputButtonTitle: String, textInputPlaceholder: String
    ) {
        self.init(identifier, title, options, icon)
        self.textInputButtonTitle = textInputButtonTitle
        self.textInputPlaceholder = textInputPlaceholder
    }
}

/// The app's notification center.
open class UNUserNotificationCenter: NSObject {
    override init() {}
    open class func current() -> UNUserNotificationCenter { UNUserNotificationCenter() }
    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {}
}
