import Foundation

/// Which URLs may be downloaded: absolute `https` URLs (the scheme in any case), and plain
/// `http` only for the hosts named as exceptions, as App Transport Security exceptions allow.
/// No `file:`, no other scheme, no scheme-relative `//host/x`. A download follows at most
/// ``maxRedirects`` redirects, each target checked by the same rules.
///
/// Refusals are ``DownloadError``s of kind ``DownloadError/Kind/notAllowed``.
public struct DownloadPolicy: Sendable, Hashable {
    /// The default and largest-by-contract number of redirects followed: 5.
    public static let defaultMaxRedirects = 5

    /// Hosts (lower case) that may be reached over plain `http`; matched exactly, without
    /// subdomains.
    public let httpAllowedHosts: Set<String>
    /// How many redirects one download may follow.
    public let maxRedirects: Int

    /// A policy that allows plain `http` for `httpAllowedHosts` (any case; IPv6 literals with or
    /// without brackets).
    public init(allowingHTTPFor httpAllowedHosts: some Sequence<String> = [String](),
                maxRedirects: Int = DownloadPolicy.defaultMaxRedirects) {
        self.httpAllowedHosts = Set(httpAllowedHosts.map(Self.normalizedHost))
        self.maxRedirects = maxRedirects
    }

    /// Checks a URL as a script gives it and returns it parsed, its scheme in lower case.
    /// - Throws: `not allowed` when the text is no absolute URL or the policy refuses it.
    public func check(_ text: String) throws(DownloadError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("//") {
            throw DownloadError(.notAllowed, "scheme-relative URL '\(text)'; give an absolute https URL")
        }
        guard let url = URL(string: trimmed) else {
            throw DownloadError(.notAllowed, "'\(text)' is not a valid URL")
        }
        return try check(url)
    }

    /// Checks a parsed URL (a script's, or a redirect's target) and returns it with its scheme
    /// in lower case.
    /// - Throws: `not allowed` when the policy refuses it.
    public func check(_ url: URL) throws(DownloadError) -> URL {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty else {
            throw DownloadError(.notAllowed, "'\(url.absoluteString)' is not an absolute URL; give an https URL")
        }
        let host = url.host.map(Self.normalizedHost) ?? ""
        switch scheme {
        case "https":
            if host.isEmpty { throw DownloadError(.notAllowed, "'\(url.absoluteString)' has no host") }
        case "http":
            if host.isEmpty { throw DownloadError(.notAllowed, "'\(url.absoluteString)' has no host") }
            guard httpAllowedHosts.contains(host) else {
                throw DownloadError(
                    .notAllowed, "plain http to '\(host)' is not allowed; use https or allow http for that host")
            }
        default:
            throw DownloadError(.notAllowed, "scheme '\(scheme):' is not allowed; only https")
        }
        return Self.lowercasingScheme(url, scheme: scheme)
    }

    private static func normalizedHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    private static func lowercasingScheme(_ url: URL, scheme: String) -> URL {
        guard url.scheme != scheme, var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteURL
        }
        parts.scheme = scheme
        return parts.url ?? url.absoluteURL
    }
}
