/// The options a script gives to `content:attach(file, options)`: an identifier and the
/// thumbnail options.
public struct AttachOptions: Sendable, Hashable {
    /// The attachment's identifier; nil lets the host generate one.
    public var identifier: String?
    /// The thumbnail options.
    public var options: AttachmentOptions

    /// Creates attach options.
    public init(identifier: String? = nil, options: AttachmentOptions = AttachmentOptions()) {
        self.identifier = identifier
        self.options = options
    }

    /// Reads `{identifier=, thumbnailHidden=, thumbnailClippingRect=, thumbnailTime=}`; nil,
    /// `null` or an empty array is no options.
    ///
    /// - Throws: ``AttachmentError`` naming the option and what it takes, or an unknown name.
    public init(json: JSONValue?) throws(AttachmentError) {
        let members = try AttachmentOptions.members(of: json, what: "attach options")
        if let value = members["identifier"] {
            guard let string = value.stringValue else {
                throw AttachmentError(.invalidValue, "identifier must be a string")
            }
            identifier = string
        }
        options = try AttachmentOptions(members: members, extraKeys: ["identifier"])
    }
}
