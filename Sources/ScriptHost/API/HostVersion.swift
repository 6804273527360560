extension ScriptHost {
    /// This host's version, as bundles name it: a bundle whose manifest asks for a higher
    /// `minimumHostVersion` is refused at install. It grows by one with each release that
    /// gives scripts something a script written for the release before could not rely on.
    public static let hostVersion = 1
}
