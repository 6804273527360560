/// Picks the best of the languages an app has for the languages a device prefers
/// (`locale.best`).
public enum LocaleMatcher: Sendable {
    /// The best of `available` for `preferred` (most preferred first): for each preferred
    /// language in order, an exact match (`de-AT`) wins, then the bare language (`de`), then
    /// another region of the same language (`de-DE`, the first in `available`'s order). Case and
    /// `-`/`_` do not matter.
    ///
    /// - Returns: The element of `available` as given, or nil when no language matches.
    public static func best(available: [String], preferred: [String]) -> String? {
        let candidates = available.map { (given: $0, tag: normalized($0)) }
        for wanted in preferred.map(normalized) {
            let language = Self.language(of: wanted)
            if let exact = candidates.first(where: { $0.tag == wanted }) {
                return exact.given
            }
            if let bare = candidates.first(where: { $0.tag == language }) {
                return bare.given
            }
            if let sibling = candidates.first(where: { Self.language(of: $0.tag) == language }) {
                return sibling.given
            }
        }
        return nil
    }

    /// A language tag in lower case with `-` between its parts: `pt_BR` is `pt-br`.
    public static func normalized(_ tag: String) -> String {
        String(tag.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    /// The language of a normalized tag: the part before the first `-`.
    static func language(of tag: String) -> Substring {
        tag.prefix { $0 != "-" }
    }
}
