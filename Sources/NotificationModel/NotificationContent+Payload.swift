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
        // One pass over each dictionary: a payload holds a few of these keys, and a lookup of
        // each would hash every name.
        for (key, value) in payload.aps {
            switch key {
            case "alert":
                switch value {
                case .string(let text): body = text
                case .object(let alert): setAlert(alert)
                default: break
                }
            case "badge": badge = value.integerValue.flatMap { Int(exactly: $0) }
            case "sound": sound = NotificationSound(apsSound: value)
            case "category": categoryIdentifier = value.stringValue ?? ""
            case "thread-id": threadIdentifier = value.stringValue ?? ""
            case "target-content-id": targetContentIdentifier = value.stringValue
            case "interruption-level": interruptionLevel = value.stringValue.flatMap(InterruptionLevel.init(rawValue:)) ?? .active
            case "relevance-score": relevanceScore = value.doubleValue ?? 0
            case "filter-criteria": filterCriteria = value.stringValue
            default: break
            }
        }
    }

    /// The fields an `aps.alert` dictionary gives.
    private mutating func setAlert(_ alert: [String: JSONValue]) {
        for (key, value) in alert {
            switch key {
            case "title": title = value.stringValue ?? ""
            case "subtitle": subtitle = value.stringValue ?? ""
            case "body": body = value.stringValue ?? ""
            case "launch-image": launchImageName = value.stringValue ?? ""
            case "summary-arg": summaryArgument = value.stringValue ?? ""
            case "summary-arg-count": summaryArgumentCount = value.integerValue.flatMap { Int(exactly: $0) } ?? 0
            default: break
            }
        }
    }
}
