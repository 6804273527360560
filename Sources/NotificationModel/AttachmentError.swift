/// Why a file cannot be attached, or why attachment options are refused.
public typealias AttachmentError = RuleError<AttachmentRule>

/// The attachment rules a file or its options can break.
public enum AttachmentRule: Sendable, Hashable {
    /// The file's type is not one iOS attaches (message starts `unsupported type`).
    case unsupportedType
    /// The file is larger than its kind allows (message starts `too large`).
    case tooLarge
    /// An option, or the size or URL, has the wrong type or range.
    case invalidValue
}
