import Foundation
import NotificationModel
import ScriptHost

/// One `*.fixture.json` file (SPEC section 4): a payload, the script to run it through, what
/// the host is told, and the expected result.
public struct Fixture: Sendable {
    /// The file it was read from.
    public let file: URL
    /// Its name (`name`, else the file's name).
    public let name: String
    /// The script's file (relative paths are resolved against the fixture's folder).
    public let script: URL
    /// The app (`app`), which wins over an `.apns` file's target bundle.
    public let app: String?
    /// The payload as given: an object, or a `.json`/`.apns` file.
    public let payload: PayloadSource
    /// `locales`.
    public let locales: [String]?
    /// `categories`, registered before the fixture runs.
    public let categories: [NotificationCategory]
    /// `keys`, decoded from base64.
    public let keys: [String: [UInt8]]
    /// `media`: answers for downloads.
    public let media: [String: MediaAnswer]
    /// `http`: answers for `http.post` by URL.
    public let http: [String: PostAnswer]
    /// `allowPost`: the hosts `http.post` may post to.
    public let allowPost: Set<String>
    /// `limits`, over the defaults.
    public let limits: ScriptLimits?
    /// `expect`: matched against the result as a subset.
    public let expect: JSONValue

    /// Where a fixture's payload comes from.
    public enum PayloadSource: Sendable {
        /// Given inline.
        case inline(JSONValue)
        /// A `.json` or `.apns` file.
        case file(URL)
    }
}
