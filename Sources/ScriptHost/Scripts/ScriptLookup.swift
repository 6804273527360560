/// The script for a request, as a script source found it.
public enum ScriptLookup: Sendable {
    /// The script to run.
    case script(Script)
    /// The app has no script: the original content is delivered (reason `no-script`).
    case missing
    /// The script could not be loaded: the original content is delivered (reason `load`).
    case failed(String)
}
