/// The request a sandbox's host functions serve while a job runs, and the phase writing.
struct Binding {
    let run: RequestRun
    let phase: RequestPhase

    /// Adds a message to the request's log as a host warning (for the app's stores, which
    /// report what they find as they read).
    var hostWarnings: (String) -> Void {
        { [run] in run.log(.warn, $0, host: true) }
    }
}
