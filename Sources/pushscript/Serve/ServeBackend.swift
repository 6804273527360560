import NotificationModel
import ScriptBundles
import ScriptHost

/// An answer made, with what the logs and counters say of it.
struct ServedAnswer: Sendable {
    /// The answer line, `id` first, newline included.
    var line: [UInt8]
    var outcome: String
    var reason: DeliveryResult.Reason?
    var script: ScriptIdentity?
}

/// Where `serve`'s requests are delivered: in this process (`--isolation thread`) or in
/// worker processes (`--isolation process`).
protocol ServeBackend: Sendable {
    /// Delivers one request (`accepted`, read as `request` with `id`) and makes its answer;
    /// always returns, by the request's deadline (plus `bestAttempt`'s time and a small grace).
    nonisolated(nonsending) func serve(_ accepted: AcceptedRequest, _ request: NotificationRequest, id: JSONValue) async -> ServedAnswer
    /// The executor the lanes prefer (the one deliveries run on), if any.
    var laneExecutor: (any TaskExecutor)? { get }
    /// Lua threads and worker processes held now.
    var held: (luaThreads: Int, workers: Int) { get }
    /// Called now and then while serving (about once a second).
    func tick()
    /// Ends what the backend holds, once every lane has finished.
    func shutdown()
    /// Ends what the backend holds at once (a second stop signal).
    func abort()
}

/// Deliveries in this process: the host's Lua threads run the scripts.
struct ThreadBackend: ServeBackend {
    let host: ScriptHost
    let scripts: ScriptDirectory
    /// Installed bundle versions over the folder's scripts (`--state DIR --trust KEY.pub`).
    let installed: InstalledScripts?
    let retention: AttachmentRetention?
    /// How long an app goes without a request before its Lua states are closed.
    let idleRelease: Duration

    /// Called after each answer (a worker process ends itself when a Lua thread is stuck).
    let answered: @Sendable () -> Void

    nonisolated(nonsending) func serve(_ accepted: AcceptedRequest, _ request: NotificationRequest, id: JSONValue) async -> ServedAnswer {
        defer { answered() }
        let result = if let installed {
            await host.deliver(request, from: installed)
        } else {
            await host.deliverInPlace(request, from: scripts)
        }
        // Kept before it is written: a written answer's files are counted.
        retention?.keep(result)
        return ServedAnswer(line: result.jsonLineBytes(id: id), outcome: result.outcome.rawValue, reason: result.reason, script: result.script)
    }

    var laneExecutor: (any TaskExecutor)? { host.deliveryExecutor }

    var held: (luaThreads: Int, workers: Int) { (host.luaThreadCount, 0) }

    /// Lua jobs given up as stuck that still hold a thread (their CPU burns on).
    var stuckJobs: Int { host.stuckLuaJobCount }

    func tick() {
        if host.releaseIdleLuaStates(unusedFor: idleRelease) > 0 { ReleasedMemory.trim() }
    }

    func shutdown() { installed?.flush() }

    func abort() {}
}
