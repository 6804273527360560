/// A button of a notification category (`UNNotificationAction`, or
/// `UNTextInputNotificationAction` when it has a ``textInput``).
public struct NotificationAction: Sendable, Hashable {
    /// The text field an action shows (`UNTextInputNotificationAction`).
    public struct TextInput: Sendable, Hashable {
        /// The title of the send button.
        public var buttonTitle: String
        /// The text shown in the empty field.
        public var placeholder: String

        /// Creates a text input.
        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    /// The identifier the app receives when the action is chosen.
    public var identifier: String
    /// The button's title.
    public var title: String
    /// The action's options, in the order given.
    public var options: [ActionOption]
    /// The text field, for a text input action; nil for a plain button.
    public var textInput: TextInput?
    /// The button's image (iOS 15+); nil for none.
    public var icon: ActionIcon?

    /// Creates an action.
    public init(identifier: String, title: String, options: [ActionOption] = [], textInput: TextInput? = nil, icon: ActionIcon? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
        self.icon = icon
    }
}
