/// Reads the parts of a category from JSON, naming paths in its errors.
struct CategoryReader {
    /// How list elements are counted in errors: 0 (JSON) or 1 (Lua).
    var firstIndex = 0

    /// `path.key`, or `key` at the top.
    func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// An array, or an empty object (an empty Lua table has no shape); nil for anything else.
    static func list(_ value: JSONValue) -> [JSONValue]? {
        switch value {
        case .array(let elements): elements
        case .object(let members) where members.isEmpty: []
        default: nil
        }
    }

    func object(_ value: JSONValue, _ path: String, shape: String, allowed: [String]) throws(CategoryError) -> [String: JSONValue] {
        let name = path.isEmpty ? "category" : path
        guard case .object(let members) = value else {
            throw CategoryError("\(name) must be \(shape)")
        }
        for key in members.keys.sorted() where !allowed.contains(key) {
            throw CategoryError("\(name) has no field '\(key)'; it takes \(allowed.joined(separator: ", "))")
        }
        return members
    }

    func identifier(_ value: JSONValue?, _ path: String) throws(CategoryError) -> String {
        guard let string = value?.stringValue, !string.isEmpty else {
            throw CategoryError("\(path) must be a non-empty string")
        }
        return string
    }

    func string(_ value: JSONValue?, _ path: String) throws(CategoryError) -> String {
        guard let string = value?.stringValue else {
            throw CategoryError("\(path) must be a string")
        }
        return string
    }

    func options<Option: RawRepresentable & CaseIterable>(
        _ value: JSONValue?, _ path: String, as: Option.Type
    ) throws(CategoryError) -> [Option] where Option.RawValue == String {
        guard let value else { return [] }
        guard let elements = Self.list(value) else {
            throw CategoryError("\(path) must be a list of option names")
        }
        var options: [Option] = []
        for (index, element) in elements.enumerated() {
            guard let name = element.stringValue else {
                throw CategoryError("\(path)[\(index + firstIndex)] must be an option name (a string)")
            }
            guard let option = Option(rawValue: name) else {
                throw CategoryError("\(path): unknown option '\(name)'; use \(Self.names(of: Option.self))")
            }
            options.append(option)
        }
        return options
    }

    /// A list of non-empty strings (`intentIdentifiers`); none when absent.
    func identifiers(_ value: JSONValue?, _ path: String) throws(CategoryError) -> [String] {
        guard let value else { return [] }
        guard let elements = Self.list(value) else {
            throw CategoryError("\(path) must be a list of strings")
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            names.append(try identifier(element, "\(path)[\(index + firstIndex)]"))
        }
        return names
    }

    /// `{system = NAME}` or `{template = NAME}`.
    func icon(_ value: JSONValue, _ path: String) throws(CategoryError) -> ActionIcon {
        let shape = "{system = NAME} or {template = NAME}"
        guard case .object(let members) = value, members.count == 1, let (kind, name) = members.first else {
            throw CategoryError("\(path) must be \(shape)")
        }
        switch kind {
        case "system": return .system(try identifier(name, join(path, "system")))
        case "template": return .template(try identifier(name, join(path, "template")))
        default: throw CategoryError("\(path) has no field '\(kind)'; it must be \(shape)")
        }
    }

    func action(_ value: JSONValue, _ path: String) throws(CategoryError) -> NotificationAction {
        let members = try object(
            value, path, shape: "{identifier=, title=, options=, textInput=, icon=}",
            allowed: ["identifier", "title", "options", "textInput", "icon"]
        )
        var action = NotificationAction(
            identifier: try identifier(members["identifier"], join(path, "identifier")),
            title: try string(members["title"], join(path, "title")),
            options: try options(members["options"], join(path, "options"), as: ActionOption.self)
        )
        if let input = members["textInput"] {
            let inputPath = join(path, "textInput")
            let fields = try object(input, inputPath, shape: "{buttonTitle=, placeholder=}", allowed: ["buttonTitle", "placeholder"])
            action.textInput = NotificationAction.TextInput(
                buttonTitle: try string(fields["buttonTitle"], join(inputPath, "buttonTitle")),
                placeholder: try string(fields["placeholder"], join(inputPath, "placeholder"))
            )
        }
        if let icon = members["icon"] {
            action.icon = try self.icon(icon, join(path, "icon"))
        }
        return action
    }

    /// `a, b or c`.
    static func names<Option: RawRepresentable & CaseIterable>(of: Option.Type) -> String where Option.RawValue == String {
        let names = Option.allCases.map(\.rawValue)
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}
