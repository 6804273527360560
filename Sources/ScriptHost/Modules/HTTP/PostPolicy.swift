import Foundation

/// What `http.post` may send where: absolute `https` URLs to the hosts the host allows
/// (`--allow-post HOST`; none by default), bodies and responses of at most 64 KB, no redirects.
struct PostPolicy: Sendable {
    /// The largest body a script may post, and the largest response it gets, in bytes.
    static let maximumBytes = 64 * 1024

    /// The hosts posts may go to, lower case.
    let allowedHosts: Set<String>

    init(allowedHosts: Set<String>) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }

    /// The URL to post to, or why not (a message starting with `not allowed`).
    func check(_ text: String) -> Result<URL, PostFailure> {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            return .failure(PostFailure("not allowed: '\(text.prefix(80))' is not an absolute URL; give an https URL"))
        }
        guard scheme.lowercased() == "https" else {
            return .failure(PostFailure("not allowed: only https URLs can be posted to, not \(scheme)"))
        }
        guard let host = components.host?.lowercased(), !host.isEmpty, components.user == nil, components.password == nil,
              let url = components.url
        else {
            return .failure(PostFailure("not allowed: '\(text.prefix(80))' has no host to post to"))
        }
        guard allowedHosts.contains(host) else {
            return .failure(PostFailure("not allowed: the host does not allow posts to \(host) (--allow-post \(host))"))
        }
        return .success(url)
    }
}

/// Why a post was not made or failed: a short message starting with `not allowed`, `too
/// large`, `timeout`, `network` or `deadline`.
struct PostFailure: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
