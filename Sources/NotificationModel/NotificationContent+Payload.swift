extension NotificationContent {
    /// The content iOS makes of a payload: `aps.alert` as a string becomes the body, as a
    /// dictionary its `title`, `subtitle`, `body`, `launch-image`, `summary-arg` and
    /// `summary-arg-count`; `badge`, `sound`, `category`, `thread-id`, `target-content-id`,
    /// `interruption-level`, `relevance-score` and `filter-criteria` fill their fields; the
    /// whole payload becomes ``userInfo``. Localized keys stay in `userInfo` until
    /// ``applyLocalizedAlert(strings:)`` resolves them.
    public init(payload: Payload) {
        self.init()
        userInfo = payload.userInfo
        let aps = payload.aps

        switch aps["alert"] {
        case .string(let text)?:
            body = text
        case .object(let alert)?:
            title = alert["title"]?.stringValue ?? ""
            subtitle = alert["subtitle"]?.stringValue ?? ""
            body = alert["body"]?.stringValue ?? ""
            launchImageName = alert["launch-image"]?.stringValue ?? ""
            summaryArgument = alert["summary-arg"]?.stringValue ?? ""
            summaryArgumentCount = alert["summary-arg-count"]?.integerValue.flatMap { Int(exactly: $0) } ?? 0
        default:
            break
        }

        badge = aps["badge"]?.integerValue.flatMap { Int(exactly: $0) }
        sound = aps["sound"].flatMap(NotificationSound.init(apsSound:))
        categoryIdentifier = aps["category"]?.stringValue ?? ""
        threadIdentifier = aps["thread-id"]?.stringValue ?? ""
        targetContentIdentifier = aps["target-content-id"]?.stringValue
        interruptionLevel = aps["interruption-level"]?.stringValue.flatMap(InterruptionLevel.init(rawValue:)) ?? .active
        relevanceScore = aps["relevance-score"]?.doubleValue ?? 0
        filterCriteria = aps["filter-criteria"]?.stringValue
    }
}
