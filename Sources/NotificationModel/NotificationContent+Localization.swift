extension NotificationContent {
    /// Resolves the localized keys of `userInfo.aps.alert` against a strings table, before a
    /// script runs (`--strings`): each part with a key (`title-loc-key`, `subtitle-loc-key`,
    /// `loc-key`) replaces ``title``, ``subtitle`` or ``body``; parts without one are kept.
    /// The keys stay in ``userInfo``.
    public mutating func applyLocalizedAlert(strings: [String: String]) {
        guard let alert = userInfo["aps"]?["alert"], let localized = LocalizedAlert(alert: alert) else { return }
        let texts = localized.resolved(strings: strings)
        if let text = texts.title { title = text }
        if let text = texts.subtitle { subtitle = text }
        if let text = texts.body { body = text }
    }
}
