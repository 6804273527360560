/// Why a payload is refused, as APNs and iOS would refuse it.
public typealias PayloadError = RuleError<PayloadRule>

/// The payload rules APNs and iOS hold a payload to.
public enum PayloadRule: Sendable, Hashable {
    /// The data is not JSON text.
    case invalidJSON
    /// The JSON is not an object.
    case notAnObject
    /// The compact JSON is larger than ``Payload/maximumSize``.
    case tooLarge
    /// There is no `aps` dictionary.
    case missingAPS
    /// A known key holds a value of the wrong type or range.
    case invalidValue
}
