import NotificationModel

extension ContentField {
    /// What the field takes, in the script API's words (Lua tables and methods), as messages
    /// say it after `<field> must be `.
    var scriptRequirement: String {
        switch self {
        case .sound: "nil, a sound name or {name=, critical=, volume=}"
        case .userInfo: "a table with string keys (a JSON object)"
        case .attachments: "changed with content:attach(...)"
        default: requirement
        }
    }
}

extension ContentFieldError {
    /// The message for a script: a requirement or a read-only field said in the script API's
    /// words, any other message as it is.
    var scriptMessage: String {
        guard let field = ContentField(rawValue: field) else { return message }
        if kind == .readOnly { return "\(field.rawValue) is read-only; use content:attach(...)" }
        if unmetRequirement { return "\(field.rawValue) must be \(field.scriptRequirement)" }
        return message
    }
}
