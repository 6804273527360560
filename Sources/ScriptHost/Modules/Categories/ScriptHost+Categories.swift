import NotificationModel

extension ScriptHost {
    /// The categories an app has now, declared ones first: those the host and its requests
    /// declared and those its scripts registered (what `categories.list()` lists).
    public func categories(app: String?) -> [NotificationCategory] {
        runtime(for: app).categories.read { $0.all }
    }
}
