import Foundation
import NotificationModel

/// One push to deliver: its payload and what the device and the fixture say about it (a
/// fixture's answers for downloads and posts travel beside it, as ``RequestAnswers``).
public struct NotificationRequest: Sendable {
    /// The validated payload.
    public var payload: Payload
    /// The app's bundle identifier; when nil, the payload's `.apns` target bundle, if any.
    public var app: String?
    /// The `apns-id`; a UUID is made when nil.
    public var identifier: String?
    /// The device's preferred languages, most preferred first; the host's when nil.
    public var locales: [String]?
    /// Limits for this request; the host's when nil.
    public var limits: ScriptLimits?
    /// The system's deadline for this request, counted from its start (`expireMs`): when it
    /// comes, the request ends as at an ``DeliverySession/expire()`` — the script is stopped
    /// and the best attempt delivered. The host's own ``ScriptLimits/time`` still applies;
    /// whichever comes first ends `didReceive`, and the reason says which. Nil: none.
    public var expiry: Duration?
    /// Categories declared for the app before this request runs (a fixture's `categories`).
    public var categories: [NotificationCategory]
    /// Keys for `keys.get` added for this request (a fixture's `keys`).
    public var keys: [String: [UInt8]]
    /// Hosts `http.post` may post to in this request, besides the host's (a fixture's `allowPost`).
    public var allowPostHosts: Set<String>
    /// Hosts this request may also reach over plain `http` (a fixture's `allowHttp`).
    public var allowHTTPHosts: Set<String> = []
    /// Localized strings for this request, in place of the host's (a fixture's `strings`).
    public var strings: [String: String]?
    /// The most hosts this request may reach over plain `http`, whatever the host and
    /// ``allowHTTPHosts`` allow: an installed bundle's `allowHttp`. Nil for no bound.
    public var httpHostsBound: Set<String>?
    /// The most hosts `http.post` may post to in this request, whatever the host and
    /// ``allowPostHosts`` allow: an installed bundle's `allowPost`. Nil for no bound.
    public var postHostsBound: Set<String>?
    /// The media directory for this request in place of the host's
    /// (``HostConfiguration/mediaDirectory``): an installed bundle's media. Nil for the host's.
    public var mediaDirectory: URL?
    /// When the request arrived (`serve`: when the read that brought its line returned). A
    /// script file looked at since then and found unchanged is not looked at again for it; nil,
    /// the file is looked at for this request.
    package var arrivedAt: ContinuousClock.Instant?
    /// ``payload``'s `userInfo` in the bridge's format, made as its line was read (`serve`,
    /// ``RequestLineBuilder``), with the dictionary it encodes: what the script's
    /// `content.userInfo` is made from while the content's `userInfo` is that dictionary. Nil:
    /// it is written from the dictionary.
    package var userInfoEncoding: UserInfoEncoding?

    /// A request for a payload.
    public init(
        payload: Payload, app: String? = nil, identifier: String? = nil, locales: [String]? = nil,
        limits: ScriptLimits? = nil, categories: [NotificationCategory] = [], keys: [String: [UInt8]] = [:],
        allowPostHosts: Set<String> = [],
        expiry: Duration? = nil
    ) {
        self.payload = payload
        self.app = app
        self.identifier = identifier
        self.locales = locales
        self.limits = limits
        self.categories = categories
        self.keys = keys
        self.allowPostHosts = allowPostHosts
        self.expiry = expiry
    }

    /// The app the request is for: ``app``, else the payload's `.apns` target bundle.
    public var resolvedApp: String? { app ?? payload.appBundleID }

    /// The hosts the request may reach over plain `http`: the host's and ``allowHTTPHosts``,
    /// within ``httpHostsBound``.
    func httpHosts(host: Set<String>) -> Set<String> {
        Self.bounded(allowHTTPHosts.isEmpty ? host : host.union(allowHTTPHosts), by: httpHostsBound)
    }

    /// The hosts `http.post` may post to: the host's and ``allowPostHosts``, within
    /// ``postHostsBound``.
    func postHosts(host: Set<String>) -> Set<String> {
        Self.bounded(allowPostHosts.isEmpty ? host : host.union(allowPostHosts), by: postHostsBound)
    }

    private static func bounded(_ hosts: Set<String>, by bound: Set<String>?) -> Set<String> {
        guard let bound else { return hosts }
        let allowed = Set(bound.map { $0.lowercased() })
        return hosts.filter { allowed.contains($0.lowercased()) }
    }
}

extension NotificationRequest {
    /// The largest `expireMs` taken: a day, as for `timeMs`.
    public static let maximumExpiryMilliseconds: Int64 = 86_400_000

    /// The range `expireMs` (`--expire-ms`) takes, as a message says it.
    public static let expiryRange = "a whole number of milliseconds from 1 to \(maximumExpiryMilliseconds) (a day)"

    /// `expireMs` as an ``expiry``; nil when it is out of ``expiryRange``.
    public static func expiry(milliseconds: Int64) -> Duration? {
        guard milliseconds >= 1, milliseconds <= maximumExpiryMilliseconds else { return nil }
        return .milliseconds(milliseconds)
    }
}
