extension ScriptDirectory {
    /// What a ``ScriptDirectory`` tells its embedder about the versions of its scripts.
    public enum Event: Sendable, Hashable {
        /// A version of an app's script compiled and is in service from now on (the first
        /// version seen, or a change). `afterFailure` is true when the version before it was
        /// rejected.
        case loaded(app: String, file: String, afterFailure: Bool)
        /// A version of an app's script was rejected: it does not compile, is too large or cannot
        /// be read. `message` says why (`com.example.news.lua:3: ...`). When
        /// `keepingLastGood` is true the last good version stays in service; otherwise the
        /// app's requests get the original content with reason `load` until the file is fixed.
        case rejected(app: String, message: String, keepingLastGood: Bool)
    }
}
