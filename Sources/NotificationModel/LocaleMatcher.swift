/// Picks the best of the languages an app has for the languages a device prefers
/// (`locale.best`).
public enum LocaleMatcher: Sendable {
    /// The best of `available` for `preferred` (most preferred first): for each preferred
    /// language in order, an exact match (`de-AT`) wins, then the bare language (`de`), then
    /// another region of the same language (`de-DE`, the first in `available`'s order). Case and
    /// `-`/`_` do not matter.
    ///
    /// - Returns: The element of `available` as given, or nil when no language matches.
    /// Linear in the number of tags: each is normalised once and looked up by hash, so a
    /// script cannot make the host compare every tag with every other.
    public static func best(available: [String], preferred: [String]) -> String? {
        guard !available.isEmpty else { return nil }
        // the first index of each tag, and of each language as a bare tag or as any tag's
        var byTag: [String: Int] = [:]
        var byLanguage: [Substring: Int] = [:]
        byTag.reserveCapacity(available.count)
        for (index, given) in available.enumerated() {
            let tag = normalized(given)
            if byTag[tag] == nil { byTag[tag] = index }
            let language = Self.language(of: tag)
            if byLanguage[language] == nil { byLanguage[language] = index }
        }
        for wanted in preferred {
            let tag = normalized(wanted)
            if let exact = byTag[tag] { return available[exact] }
            let language = Self.language(of: tag)
            if let bare = byTag[String(language)] { return available[bare] }
            if let sibling = byLanguage[language] { return available[sibling] }
        }
        return nil
    }

    /// A language tag in lower case with `-` between its parts: `pt_BR` is `pt-br`.
    public static func normalized(_ tag: String) -> String {
        var utf8 = Array(tag.utf8)
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return String(tag.lowercased().map { $0 == "_" ? "-" : $0 }) }
        for k in utf8.indices {
            let c = utf8[k]
            if c >= 0x41, c <= 0x5a { utf8[k] = c + 0x20 } else if c == 0x5f { utf8[k] = 0x2d }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The language of a normalized tag: the part before the first `-`.
    static func language(of tag: String) -> Substring {
        tag.prefix { $0 != "-" }
    }
}
