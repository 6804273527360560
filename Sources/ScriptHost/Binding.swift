/// The request a sandbox's host functions serve while a job runs, and the phase writing.
struct Binding {
    let run: RequestRun
    let phase: RequestPhase
}
