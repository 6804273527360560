#if canImport(UserNotifications)
import NotificationModel
import UserNotifications

extension NotificationServiceAdapter {
    /// Hands `categories` (`ScriptHost.categories(app:)`: the declared ones and those scripts
    /// registered) to `UNUserNotificationCenter`, which replaces the app's categories with them.
    public static func registerCategories(_ categories: [NotificationCategory]) {
        UNUserNotificationCenter.current().setNotificationCategories(Set(categories.map(category)))
    }

    /// The system's category for one of the host's.
    public static func category(_ category: NotificationCategory) -> UNNotificationCategory {
        UNNotificationCategory(
            identifier: category.identifier, actions: category.actions.map(action), intentIdentifiers: category.intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder, categorySummaryFormat: category.categorySummaryFormat,
            options: categoryOptions(category.options))
    }

    /// The system's action: a text input action when it has a text field, with its icon.
    static func action(_ action: NotificationAction) -> UNNotificationAction {
        let options = actionOptions(action.options)
        let icon = action.icon.map { icon in
            switch icon {
            case .system(let name): UNNotificationActionIcon(systemImageName: name)
            case .template(let name): UNNotificationActionIcon(templateImageName: name)
            }
        }
        guard let input = action.textInput else {
            return UNNotificationAction(identifier: action.identifier, title: action.title, options: options, icon: icon)
        }
        return UNTextInputNotificationAction(
            identifier: action.identifier, title: action.title, options: options, icon: icon,
            textInputButtonTitle: input.buttonTitle, textInputPlaceholder: input.placeholder)
    }

    static func actionOptions(_ options: [ActionOption]) -> UNNotificationActionOptions {
        options.reduce(into: []) { set, option in
            switch option {
            case .foreground: set.insert(.foreground)
            case .destructive: set.insert(.destructive)
            case .authenticationRequired: set.insert(.authenticationRequired)
            }
        }
    }

    /// The category options. `allowInCarPlay` and `allowAnnouncement` do not exist on macOS;
    /// `allowAnnouncement` is passed as the category asks, though iOS 15 and later decide from
    /// the user's settings.
    static func categoryOptions(_ options: [CategoryOption]) -> UNNotificationCategoryOptions {
        options.reduce(into: []) { set, option in
            switch option {
            case .customDismissAction: set.insert(.customDismissAction)
            case .allowInCarPlay:
                #if !os(macOS)
                set.insert(.allowInCarPlay)
                #endif
            case .hiddenPreviewsShowTitle: set.insert(.hiddenPreviewsShowTitle)
            case .hiddenPreviewsShowSubtitle: set.insert(.hiddenPreviewsShowSubtitle)
            case .allowAnnouncement:
                #if !os(macOS)
                set.insert(DeprecatedFields.allowAnnouncement)
                #endif
            }
        }
    }
}
#endif
