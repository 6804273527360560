extension AttachmentOptions {
    /// Reads options from their JSON form (`{thumbnailHidden, thumbnailClippingRect, thumbnailTime}`);
    /// nil, `null` or an empty array is no options.
    ///
    /// - Throws: ``AttachmentError`` naming the option and what it takes, or an unknown name.
    public init(json: JSONValue?) throws(AttachmentError) {
        let members = try Self.members(of: json, what: "options")
        try self.init(members: members, extraKeys: [])
    }

    init(members: [String: JSONValue], extraKeys: [String]) throws(AttachmentError) {
        let known = ["thumbnailHidden", "thumbnailClippingRect", "thumbnailTime"]
        for key in members.keys.sorted() where !known.contains(key) && !extraKeys.contains(key) {
            let names = (extraKeys + known).joined(separator: ", ")
            throw AttachmentError(.invalidValue, "attachment options have no field '\(key)'; they take \(names)")
        }
        self.init()
        if let value = members["thumbnailHidden"] {
            guard let bool = value.boolValue else {
                throw AttachmentError(.invalidValue, "thumbnailHidden must be a boolean")
            }
            thumbnailHidden = bool
        }
        if let value = members["thumbnailClippingRect"] {
            thumbnailClippingRect = try Self.clippingRect(value)
        }
        if let value = members["thumbnailTime"] {
            guard let seconds = value.doubleValue else {
                throw AttachmentError(.invalidValue, Self.timeRequirement)
            }
            thumbnailTime = seconds
        }
        try validate()
    }

    private static func clippingRect(_ value: JSONValue) throws(AttachmentError) -> ClippingRect {
        guard case .object(let members) = value else {
            throw AttachmentError(.invalidValue, "thumbnailClippingRect must be {x=, y=, width=, height=}, each a number from 0 to 1")
        }
        let sides = ["x", "y", "width", "height"]
        for key in members.keys.sorted() where !sides.contains(key) {
            throw AttachmentError(.invalidValue, "thumbnailClippingRect has no field '\(key)'; it takes x, y, width, height")
        }
        var numbers: [Double] = []
        for side in sides {
            guard let number = members[side]?.doubleValue, (0...1).contains(number) else {
                throw AttachmentError(.invalidValue, "thumbnailClippingRect.\(side) must be a number from 0 to 1")
            }
            numbers.append(number)
        }
        return ClippingRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    static func members(of json: JSONValue?, what: String) throws(AttachmentError) -> [String: JSONValue] {
        switch json {
        case nil, .null?, .array([])?:
            return [:]
        case .object(let members)?:
            return members
        default:
            throw AttachmentError(.invalidValue, "\(what) must be a table of named options")
        }
    }
}
