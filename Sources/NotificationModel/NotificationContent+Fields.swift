extension NotificationContent {
    /// The deepest a ``userInfo`` may nest: the object itself is level 1.
    public static let maximumUserInfoDepth = 32

    /// Assigns a field by its name, checking the value as a script's assignment is checked.
    ///
    /// `nil` is Lua's `nil`: it unsets the fields that may be unset (`badge`, `sound`,
    /// `targetContentIdentifier`, `filterCriteria`, for which JSON `null` does the same) and is
    /// refused elsewhere. Nothing is coerced: `"3"` is no badge and `5` no title; a number with
    /// an integral value (`2.0`) is accepted where an integer is asked for.
    ///
    /// - Throws: ``ContentFieldError``, e.g. `badge must be an integer >= 0 or nil`,
    ///   `content has no field 'titel'`, `attachments is read-only`.
    public mutating func set(_ name: String, to value: JSONValue?) throws(ContentFieldError) {
        guard let field = ContentField(rawValue: name) else {
            throw ContentFieldError(.unknownField, field: name, message: "content has no field '\(name)'")
        }
        try set(field, to: value)
    }

    /// Assigns a field, checking the value as the name-based `set(_:to:)` does.
    public mutating func set(_ field: ContentField, to value: JSONValue?) throws(ContentFieldError) {
        switch field {
        case .title: title = try Self.string(value, field)
        case .subtitle: subtitle = try Self.string(value, field)
        case .body: body = try Self.string(value, field)
        case .categoryIdentifier: categoryIdentifier = try Self.string(value, field)
        case .threadIdentifier: threadIdentifier = try Self.string(value, field)
        case .launchImageName: launchImageName = try Self.string(value, field)
        case .summaryArgument: summaryArgument = try Self.string(value, field)
        case .targetContentIdentifier: targetContentIdentifier = try Self.optionalString(value, field)
        case .filterCriteria: filterCriteria = try Self.optionalString(value, field)
        case .badge:
            badge = Self.isUnset(value) ? nil : try Self.count(value, field)
        case .summaryArgumentCount:
            summaryArgumentCount = try Self.count(value, field)
        case .sound:
            sound = Self.isUnset(value) ? nil : try Self.sound(value)
        case .interruptionLevel:
            guard let level = value?.stringValue.flatMap(InterruptionLevel.init(rawValue:)) else {
                throw Self.invalid(field)
            }
            interruptionLevel = level
        case .relevanceScore:
            guard let score = value?.doubleValue, (0...1).contains(score) else {
                throw Self.invalid(field)
            }
            relevanceScore = score
        case .userInfo:
            userInfo = try Self.userInfo(value)
        case .attachments:
            throw ContentFieldError(.readOnly, field: field.rawValue, message: "attachments is read-only")
        }
    }

    /// A field's value by its name; nil when the field is unset (`badge`, `sound`, …) or when
    /// the content has no field of that name.
    public func value(of name: String) -> JSONValue? {
        ContentField(rawValue: name).flatMap { value(of: $0) }
    }

    /// A field's value as the content's JSON holds it (``write(_:into:)``); nil when the field
    /// is unset. `attachments` is a fresh array of their JSON forms, `sound` its JSON form.
    public func value(of field: ContentField) -> JSONValue? {
        var sink = JSONValueSink()
        write(field, into: &sink)
        if sink.value.isNull { return Optional.none }  // `nil` alone would be JSON's null
        return sink.value
    }

    // MARK: Checks

    private static func invalid(_ field: ContentField) -> ContentFieldError {
        ContentFieldError(.invalidValue, field: field.rawValue, message: "\(field.rawValue) must be \(field.requirement)", unmetRequirement: true)
    }

    private static func isUnset(_ value: JSONValue?) -> Bool {
        value == nil || value?.isNull == true
    }

    private static func string(_ value: JSONValue?, _ field: ContentField) throws(ContentFieldError) -> String {
        guard let string = value?.stringValue else { throw invalid(field) }
        return string
    }

    private static func optionalString(_ value: JSONValue?, _ field: ContentField) throws(ContentFieldError) -> String? {
        if isUnset(value) { return nil }
        return try string(value, field)
    }

    private static func count(_ value: JSONValue?, _ field: ContentField) throws(ContentFieldError) -> Int {
        guard let integer = value?.integerValue, integer >= 0, let count = Int(exactly: integer) else {
            throw invalid(field)
        }
        return count
    }
}
