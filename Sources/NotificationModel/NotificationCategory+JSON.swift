import Foundation

extension NotificationCategory: JSONWritable {
    /// Reads a category in the shape `categories.register` takes and fixtures declare:
    /// `{identifier, actions: [{identifier, title, options, textInput: {buttonTitle, placeholder},
    /// icon: {system | template}}], options, intentIdentifiers, hiddenPreviewsBodyPlaceholder,
    /// categorySummaryFormat}`. `actions`, every `options` and `intentIdentifiers` may be left
    /// out (an empty object counts as an empty list).
    ///
    /// - Parameter firstIndex: how errors count list elements: 0 as JSON does
    ///   (`actions[2]` is the third), 1 as Lua does (`categories.register`).
    /// - Throws: ``CategoryError`` naming the path, e.g. `actions[2].options: unknown option 'foo'; …`.
    public init(json: JSONValue, firstIndex: Int = 0) throws(CategoryError) {
        try self.init(json: json, path: "", firstIndex: firstIndex)
    }

    /// Reads a list of categories, as a fixture's `categories` or a `--categories` file holds it.
    ///
    /// - Throws: ``CategoryError`` naming the path, e.g. `categories[1].identifier must be a non-empty string`.
    public static func list(json: JSONValue) throws(CategoryError) -> [NotificationCategory] {
        guard let elements = CategoryReader.list(json) else {
            throw CategoryError("categories must be a list of categories")
        }
        var categories: [NotificationCategory] = []
        for (index, element) in elements.enumerated() {
            categories.append(try NotificationCategory(json: element, path: "categories[\(index)]"))
        }
        return categories
    }

    /// Reads a list of categories from JSON text (a `--categories` file).
    ///
    /// - Throws: ``CategoryError`` for text that is not JSON, or as ``list(json:)`` does.
    public static func list(jsonData data: Data) throws(CategoryError) -> [NotificationCategory] {
        let value: JSONValue
        do {
            value = try JSONValue(jsonData: data)
        } catch {
            throw CategoryError("categories are \(error.message)")
        }
        return try list(json: value)
    }

    init(json: JSONValue, path: String, firstIndex: Int = 0) throws(CategoryError) {
        let reader = CategoryReader(firstIndex: firstIndex)
        let members = try reader.object(
            json, path, shape: "{identifier=, actions=, options=, intentIdentifiers=}",
            allowed: ["identifier", "actions", "options", "intentIdentifiers", "hiddenPreviewsBodyPlaceholder", "categorySummaryFormat"])
        identifier = try reader.identifier(members["identifier"], reader.join(path, "identifier"))
        options = try reader.options(members["options"], reader.join(path, "options"), as: CategoryOption.self)
        intentIdentifiers = try reader.identifiers(members["intentIdentifiers"], reader.join(path, "intentIdentifiers"))
        hiddenPreviewsBodyPlaceholder = try members["hiddenPreviewsBodyPlaceholder"].map { value throws(CategoryError) in
            try reader.string(value, reader.join(path, "hiddenPreviewsBodyPlaceholder"))
        }
        categorySummaryFormat = try members["categorySummaryFormat"].map { value throws(CategoryError) in
            try reader.string(value, reader.join(path, "categorySummaryFormat"))
        }
        actions = []
        let actionsPath = reader.join(path, "actions")
        if let value = members["actions"] {
            guard let elements = CategoryReader.list(value) else {
                throw CategoryError("\(actionsPath) must be a list of actions")
            }
            for (index, element) in elements.enumerated() {
                actions.append(try reader.action(element, "\(actionsPath)[\(index + firstIndex)]"))
            }
        }
    }

    /// Writes the category in the shape ``init(json:)`` reads: `actions` and `options` always
    /// present; `intentIdentifiers` when not empty, the two texts when set.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        sink.key(literal: "identifier")
        sink.write(string: identifier)
        sink.key(literal: "actions")
        sink.write(array: actions)
        sink.key(literal: "options")
        sink.write(strings: options.map(\.rawValue))
        if !intentIdentifiers.isEmpty {
            sink.key(literal: "intentIdentifiers")
            sink.write(strings: intentIdentifiers)
        }
        if let hiddenPreviewsBodyPlaceholder {
            sink.key(literal: "hiddenPreviewsBodyPlaceholder")
            sink.write(string: hiddenPreviewsBodyPlaceholder)
        }
        if let categorySummaryFormat {
            sink.key(literal: "categorySummaryFormat")
            sink.write(string: categorySummaryFormat)
        }
        sink.endObject()
    }
}

extension NotificationAction: JSONWritable {
    /// Writes the action: `{identifier, title, options, textInput, icon}`, `textInput` and
    /// `icon` only when set.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        sink.key(literal: "identifier")
        sink.write(string: identifier)
        sink.key(literal: "title")
        sink.write(string: title)
        sink.key(literal: "options")
        sink.write(strings: options.map(\.rawValue))
        if let textInput {
            sink.key(literal: "textInput")
            sink.beginObject()
            sink.key(literal: "buttonTitle")
            sink.write(string: textInput.buttonTitle)
            sink.key(literal: "placeholder")
            sink.write(string: textInput.placeholder)
            sink.endObject()
        }
        if let icon {
            sink.key(literal: "icon")
            icon.write(into: &sink)
        }
        sink.endObject()
    }
}

extension NotificationCategory: Codable {
    /// Decodes the shape of ``init(json:)``, with the same checks.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(json: value)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Encodes ``jsonValue``.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
