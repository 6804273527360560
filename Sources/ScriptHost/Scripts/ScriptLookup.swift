/// The script for a request, as a script source found it.
public enum ScriptLookup: Sendable {
    /// The script to run.
    case script(Script)
    /// The app has no script: the original content is delivered (reason `no-script`).
    case missing
    /// The script could not be loaded: the original content is delivered (reason `load`).
    case failed(String)
    /// The script was read but cannot go into service (it does not compile within the limits),
    /// and there is no earlier version to serve: the original content is delivered (reason
    /// `load`, with this message), and the result names the script (`script`).
    case rejected(Script, String)
}
