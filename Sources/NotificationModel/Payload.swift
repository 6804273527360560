import Foundation

/// An APNs payload that passed the rules APNs and iOS apply (SPEC §3).
///
/// Read it from a `.json` file with ``init(jsonData:)``, from the `.apns` file that
/// `xcrun simctl push` takes with ``init(apnsFileData:)``, or from a value with
/// ``init(userInfo:appBundleID:)``.
public struct Payload: Sendable, Hashable {
    /// The largest payload APNs delivers, in bytes of compact UTF-8 JSON.
    public static let maximumSize = 4096
    /// The key of an `.apns` file that names the app; it is not part of what is delivered.
    public static let simulatorTargetBundleKey = "Simulator Target Bundle"

    /// The whole payload, `aps` included, as the app's `userInfo` receives it.
    public let userInfo: [String: JSONValue]
    /// The app's bundle identifier, from an `.apns` file's `Simulator Target Bundle`.
    public let appBundleID: String?
    /// Problems that do not refuse the payload, for the host to log (one line each).
    public let warnings: [String]
    /// The size of the payload's compact JSON in UTF-8, in bytes.
    public var compactSize: Int { JSONValue.object(userInfo).compactByteCount ?? 0 }

    /// Reads and checks a payload from JSON text.
    ///
    /// - Throws: ``PayloadError`` when the payload breaks a rule of SPEC §3.
    public init(jsonData data: Data) throws(PayloadError) {
        try self.init(userInfo: Self.object(from: data), appBundleID: nil, sentSize: Self.sentSize(ofText: data))
    }

    /// Reads and checks a payload from an `.apns` file: its `Simulator Target Bundle` key
    /// becomes ``appBundleID`` and is removed before the size check and before delivery.
    ///
    /// - Throws: ``PayloadError`` when the payload breaks a rule of SPEC §3, or when
    ///   `Simulator Target Bundle` is not a string.
    public init(apnsFileData data: Data) throws(PayloadError) {
        var object = try Self.object(from: data)
        var bundleID: String?
        let target = object.removeValue(forKey: Self.simulatorTargetBundleKey)
        if let target {
            guard let string = target.stringValue else {
                throw PayloadError(.invalidValue, "\(Self.simulatorTargetBundleKey) must be a string (the app's bundle identifier)")
            }
            bundleID = string
        }
        try self.init(userInfo: object, appBundleID: bundleID, sentSize: Self.sentSize(ofAPNSText: data, target: target))
    }

    /// Checks a payload given as a value, e.g. the inline `payload` of a fixture.
    ///
    /// - Throws: ``PayloadError`` when the payload breaks a rule of SPEC §3.
    public init(value: JSONValue, appBundleID: String? = nil) throws(PayloadError) {
        guard case .object(let object) = value else {
            throw PayloadError(.notAnObject, "payload is not a JSON object: it is \(Self.article(value.kindName))")
        }
        try self.init(userInfo: object, appBundleID: appBundleID)
    }

    /// Checks a payload given as its members.
    ///
    /// - Throws: ``PayloadError`` when the payload breaks a rule of SPEC §3.
    public init(userInfo: [String: JSONValue], appBundleID: String? = nil) throws(PayloadError) {
        try self.init(userInfo: userInfo, appBundleID: appBundleID, sentSize: nil)
    }

    /// Checks a payload whose text measured `sentSize` bytes as sent, or, without a text
    /// (nil), its compact JSON: the one size the limit sees. A text's size is measured on the
    /// text, so that a key written twice (of which a reader keeps one) counts with all its
    /// bytes.
    init(userInfo: [String: JSONValue], appBundleID: String?, sentSize: Int?) throws(PayloadError) {
        let size: Int
        if let sentSize {
            size = sentSize
        } else if let compact = JSONValue.object(userInfo).compactByteCount {
            size = compact
        } else {
            do {
                size = try JSONValue.object(userInfo).jsonBytes().count
            } catch {
                throw PayloadError(.invalidJSON, "payload is not valid JSON: \(error.message)")
            }
        }
        guard size <= Self.maximumSize else {
            throw PayloadError(.tooLarge, "payload too large: \(size) bytes, APNs allows \(Self.maximumSize)")
        }
        try APSValidator.validate(userInfo)
        self.userInfo = userInfo
        self.appBundleID = appBundleID
        self.warnings = NotificationModel.isMutableContent(userInfo) ? [] : [Self.missingMutableContentMessage]
    }

    /// The `aps` dictionary.
    public var aps: [String: JSONValue] {
        userInfo["aps"]?.objectValue ?? [:]
    }

    /// Whether `aps` has `"mutable-content": 1`, without which iOS never runs the extension.
    public var isMutableContent: Bool {
        NotificationModel.isMutableContent(userInfo)
    }

    /// The whole payload as one value.
    public var jsonValue: JSONValue {
        .object(userInfo)
    }

    /// The warning for a payload without `"mutable-content": 1`.
    public static let missingMutableContentMessage =
        #"aps.mutable-content is not 1; iOS runs a notification service extension only for "mutable-content": 1"#

    static func object(from data: Data) throws(PayloadError) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValue(jsonData: data)
        } catch {
            throw PayloadError(.invalidJSON, "payload is \(error.message); give the APNs payload as one JSON object")
        }
        guard case .object(let object) = value else {
            throw PayloadError(.notAnObject, "payload is not a JSON object: it is \(article(value.kindName))")
        }
        return object
    }

    static func article(_ kindName: String) -> String {
        switch kindName {
        case "null": "null"
        case "array", "integer", "object": "an \(kindName)"
        default: "a \(kindName)"
        }
    }
}

func isMutableContent(_ userInfo: [String: JSONValue]) -> Bool {
    userInfo["aps"]?["mutable-content"]?.integerValue == 1
}
