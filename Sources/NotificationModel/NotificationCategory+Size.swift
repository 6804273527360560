extension NotificationCategory {
    /// The most bytes one category a script registers may take (its identifiers, titles and
    /// placeholders together, as JSON): 16 KiB. With ``CategoryRegistry/maximumRegisteredCount``
    /// this caps what an app's registered categories hold at 2 MiB.
    public static let maximumBytes = 16 << 10
}
