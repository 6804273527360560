extension CategoryRegistry {
    /// The fallback of ``localized(base:locale:fallback:)`` when none is given.
    public static let defaultLocalizationFallback = "en"

    /// The localized category rule (`categories.localized`): `base_locale` if registered;
    /// else `base_language` (the part of `locale` before the first `-` or `_`) if registered;
    /// else `base_fallback` (`fallback`, or `"en"` when nil) if registered; else `base`.
    ///
    /// - Returns: The identifier chosen, and whether it is a registered category (false only
    ///   when even `base` is not).
    public func localized(base: String, locale: String, fallback: String? = nil) -> (identifier: String, found: Bool) {
        let language = String(locale.prefix { $0 != "-" && $0 != "_" })
        let candidates = [locale, language, fallback ?? Self.defaultLocalizationFallback].map { "\(base)_\($0)" }
        for candidate in candidates where has(candidate) {
            return (candidate, true)
        }
        return (base, has(base))
    }
}
