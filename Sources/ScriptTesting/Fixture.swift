import FixtureTransports
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
    /// `identifier`: the request's `apns-id` (`request.identifier`); a new UUID when nil.
    public let identifier: String?
    /// The payload as given: an object, or a `.json`/`.apns` file.
    public let payload: PayloadSource
    /// `locales`.
    public let locales: [String]?
    /// `categories` (a list, or a path to a JSON file of one), registered before the fixture runs.
    public let categories: [NotificationCategory]
    /// `allowHttp`: hosts the script may reach over plain `http`, as `--allow-http` does.
    public let allowHTTPHosts: Set<String>
    /// `strings` (an object, or a path to a JSON file of one): localized strings, as
    /// `--strings` gives them.
    public let strings: [String: String]?
    /// `keys`, decoded from base64.
    public let keys: [String: [UInt8]]
    /// `media`: answers for downloads.
    public let media: [String: FixtureMedia]
    /// `http`: answers for `http.post` by URL.
    public let http: [String: PostAnswer]
    /// `allowPost`: the hosts `http.post` may post to.
    public let allowPost: Set<String>
    /// `limits`, over the defaults.
    public let limits: ScriptLimits?
    /// `expireMs`: the system's deadline, from the request's start (as `--expire-ms`).
    public let expiry: Duration?
    /// The `categories` and `strings` files it names, if any (a change to them reruns it).
    public let dataFiles: [URL]
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
