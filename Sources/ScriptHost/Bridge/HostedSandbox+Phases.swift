import LuaSandbox
import NotificationModel

/// What `didReceive` left for the rest of the request.
struct MainPhase: Sendable {
    enum End: Sendable, Hashable {
        case completed
        /// The script never ran: the original content is delivered.
        case load(String)
        /// `didReceive` did not finish.
        case failed(DeliveryResult.Reason)
    }

    var end: End
    var hasBestAttempt = false
    var hasAfterDelivery = false
    var cost = PhaseCost()
    /// The environment and objects `bestAttempt` and `afterDelivery` run with, when one of
    /// them is to run.
    var session: Session?
}

/// The Lua values of one request in one sandbox.
struct Session: Sendable {
    let environment: LuaEnvironment
    let request: LuaReference
    let content: LuaReference
}

/// What a phase cost: CPU time on its thread and the state's peak memory.
struct PhaseCost: Sendable, Hashable {
    var cpu: Duration = .zero
    var peak = 0

    static func + (a: PhaseCost, b: PhaseCost) -> PhaseCost {
        PhaseCost(cpu: a.cpu + b.cpu, peak: max(a.peak, b.peak))
    }
}

/// What a request's job hands back: how `didReceive` ended (its `bestAttempt` ran already, if
/// it was to run), what the job cost, and the session `afterDelivery` is to run in (kept only
/// when the script defines it).
struct RequestOutcome: Sendable {
    var end: MainPhase.End
    var cost: PhaseCost
    var afterDelivery: Session?
}

extension HostedSandbox {
    /// Runs the whole request on this thread: the chunk, `didReceive`, and `bestAttempt` when
    /// `didReceive` did not finish, each phase under its own deadline on `clock` (`bestAttempt`'s
    /// is its own: an expiry does not cut it short). The session is kept for `afterDelivery`
    /// when the script defines one.
    func runRequest(_ run: RequestRun, script: Script, clock: JobClock) -> RequestOutcome {
        let main = runMain(run, script: script)
        var outcome = RequestOutcome(end: main.end, cost: main.cost)
        guard let session = main.session else { return outcome }
        if case .failed(let reason) = main.end, main.hasBestAttempt,
           run.advance(from: .didReceive, to: .bestAttempt, stage: .bestAttempt(after: reason)) {
            clock.begin(deadline: .after(run.limits.bestAttemptTime), onDeadline: { run.cancelDownloads() }, expirable: false)
            outcome.cost = outcome.cost + runBestAttempt(run, session: session, reason: reason)
        }
        if main.hasAfterDelivery {
            outcome.afterDelivery = session
        } else {
            finish(session)
        }
        return outcome
    }

    /// Runs a Swift rule in place of `didReceive`, as a script's phase runs. On the Lua thread.
    func runNative(_ run: RequestRun, _ rule: NativeRule) -> PhaseCost {
        sandbox.resetMemoryPeak()
        let limits = RunLimits(cpuTime: run.limits.cpuTime, memoryBytes: run.limits.memoryBytes, deadline: run.deadline)
        let (_, cpu) = inPhase(run, .didReceive, limits) {
            run.record(.didReceive, in: .didReceive)
            _ = run.write(.didReceive) { rule(&$0.content) }
        }
        return PhaseCost(cpu: cpu, peak: sandbox.memoryPeak)
    }

    /// Runs `body` as `phase` of `run` under `limits`: the host functions serve `run` for
    /// that phase, the limits are armed around it, and its CPU time is measured.
    private func inPhase<T>(_ run: RequestRun, _ phase: RequestPhase, _ limits: RunLimits, _ body: () -> T) -> (T, Duration) {
        host.binding = Binding(run: run, phase: phase)
        defer { host.binding = nil }
        sandbox.arm(limits)
        let value = body()
        // read before disarming: the CPU the thread used since it was armed
        let cpu = sandbox.runCPUTime ?? .zero
        sandbox.disarm()
        return (value, cpu)
    }

    /// Runs the chunk and `didReceive` under the request's limits. The phase keeps its
    /// session only when `bestAttempt` is to run in it.
    func runMain(_ run: RequestRun, script: Script) -> MainPhase {
        sandbox.resetMemoryPeak()
        let limits = RunLimits(cpuTime: run.limits.cpuTime, memoryBytes: run.limits.memoryBytes, deadline: run.deadline)
        var (phase, cpu) = inPhase(run, .didReceive, limits) { () -> MainPhase in
            var phase = prepare(run, script: script)
            guard let session = phase.session else { return phase }
            switch sandbox.call("didReceive", in: session.environment, arguments: [session.request, session.content]) {
            case .completed, .missing: phase.end = .completed
            case .error(let message): phase.end = .failed(.init(kind: .error, message: message))
            case .limit(let kind): phase.end = .failed(DeliveryResult.Reason.limit(kind, run.limits, cause: run.timeCause))
            }
            run.record(.readBack, in: .didReceive)
            if let problem = contentModule.readBackUserInfo(Binding(run: run, phase: .didReceive), object: session.content) {
                if case .completed = phase.end, let kind = problem.limit {
                    run.log(.warn, problem.message, host: true)
                    phase.end = .failed(DeliveryResult.Reason.limit(kind, run.limits, cause: run.timeCause))
                } else if case .completed = phase.end {
                    phase.end = .failed(.init(kind: .error, message: problem.message))
                } else {
                    run.log(.warn, problem.message, host: true)
                }
            }
            return phase
        }
        // The budget is also checked when the handler returns: C code runs without the hook.
        if case .completed = phase.end, phase.session != nil, cpu > run.limits.cpuTime {
            sandbox.markLimitHit()
            phase.end = .failed(DeliveryResult.Reason.limit(.cpu, run.limits))
        }
        phase.cost = PhaseCost(cpu: cpu, peak: sandbox.memoryPeak)
        if case .failed = phase.end, phase.hasBestAttempt { return phase }
        if phase.hasAfterDelivery, phase.session != nil { return phase }
        if let session = phase.session { finish(session) }
        phase.session = nil
        return phase
    }

    /// The handlers a script may define, in the order ``prepare(_:script:)`` reads their types.
    private static let handlerNames = GlobalNames(["didReceive", "bestAttempt", "afterDelivery"])

    /// Compiles the script if needed, makes a fresh environment, runs the chunk and makes the
    /// request's objects. A phase with a session when `didReceive` can be called.
    private func prepare(_ run: RequestRun, script: Script) -> MainPhase {
        let chunk: CompiledChunk
        run.record(.compiling, in: .didReceive)
        switch self.chunk(for: script) {
        case .success(let compiled): chunk = compiled
        case .failure(.tooLarge(let bytes)): return MainPhase(end: .load(ScriptCompiler.tooLargeMessage(script.name, bytes: bytes)))
        case .failure(.refused(let status)):
            return MainPhase(end: .load(DeliveryResult.Reason.loadMessage(status, script: script.name, run.limits, cause: run.timeCause, compiling: true)))
        }
        hooksModule.installNewHooks()
        requireModule.moduleBase = script.directory
        guard let environment = requireModule.makeRequestEnvironment() else {
            // A limit that came while the environment was made (the deadline, most often) is
            // what ended the load, not the memory.
            if let kind = sandbox.trippedLimit {
                return MainPhase(end: .load(DeliveryResult.Reason.loadMessage(.limit(kind), script: script.name, run.limits, cause: run.timeCause)))
            }
            return MainPhase(end: .load("not enough memory to set up \(script.name)"))
        }
        run.record(.loading, in: .didReceive)
        let (loaded, types) = sandbox.run(chunk, in: environment, typesOf: Self.handlerNames)
        run.record(.didReceive, in: .didReceive)
        switch loaded {
        case .completed, .missing: break
        case let status:
            sandbox.release(environment)
            return MainPhase(end: .load(DeliveryResult.Reason.loadMessage(status, script: script.name, run.limits, cause: run.timeCause)))
        }
        guard types[0] == "function" else {
            sandbox.release(environment)
            return MainPhase(end: .load("\(script.name) defines no didReceive function"))
        }
        let hasBestAttempt = types[1] == "function"
        let hasAfterDelivery = types[2] == "function"
        guard let request = contentModule.makeRequestValue() else {
            sandbox.release(environment)
            return MainPhase(end: .failed(DeliveryResult.Reason.limit(.memory, run.limits)))
        }
        guard let content = contentModule.makeContentObject(run) else {
            sandbox.release(environment)
            sandbox.release(request)
            return MainPhase(end: .failed(DeliveryResult.Reason.limit(.memory, run.limits)))
        }
        return MainPhase(
            end: .completed, hasBestAttempt: hasBestAttempt, hasAfterDelivery: hasAfterDelivery,
            session: Session(environment: environment, request: request, content: content))
    }

    /// The longest reason message `bestAttempt` is given whole; a longer one is cut to it when
    /// it does not fit in the state.
    static let bestAttemptMessageCut = 1024

    /// Runs `bestAttempt(content, reason, request)` under its own small budget.
    func runBestAttempt(_ run: RequestRun, session: Session, reason: DeliveryResult.Reason) -> PhaseCost {
        let limits = RunLimits(
            cpuTime: run.limits.bestAttemptCPUTime,
            memoryBytes: max(sandbox.memoryUsed, run.limits.memoryBytes) + run.limits.bestAttemptMemoryHeadroom,
            deadline: .after(run.limits.bestAttemptTime))
        let (returned, cpu) = inPhase(run, .bestAttempt, limits) { () -> Bool in
            guard let reasonValue = makeReasonValue(reason, limits) else {
                run.log(.warn, "bestAttempt was not called: not even a shortened reason fits in the script's memory", host: true)
                return false
            }
            let status = sandbox.call("bestAttempt", in: session.environment, arguments: [session.content, reasonValue, session.request])
            sandbox.release(reasonValue)
            var returned = false
            switch status {
            case .completed, .missing: returned = true
            case .error(let message): run.log(.warn, "bestAttempt failed: \(message)", host: true)
            case .limit(let kind): run.log(.warn, "bestAttempt was stopped: \(DeliveryResult.Reason.bestAttemptLimit(kind, run.limits))", host: true)
            }
            if let problem = contentModule.readBackUserInfo(Binding(run: run, phase: .bestAttempt), object: session.content) {
                run.log(.warn, "bestAttempt: \(problem.message)", host: true)
            }
            return returned
        }
        // Its budget is also checked when it returns: C code runs without the hook.
        if returned, cpu > run.limits.bestAttemptCPUTime {
            sandbox.markLimitHit()
            run.log(.warn, "bestAttempt returned past its budget: \(DeliveryResult.Reason.bestAttemptLimit(.cpu, run.limits))", host: true)
        }
        return PhaseCost(cpu: cpu, peak: sandbox.memoryPeak)
    }

    /// The `reason` table: whole, or with its message cut when the whole does not fit (the
    /// refused allocation is forgotten: the limits are armed again).
    private func makeReasonValue(_ reason: DeliveryResult.Reason, _ limits: RunLimits) -> LuaReference? {
        func table(_ message: String) -> LuaInput {
            .table(LuaTable(fields: [("kind", .text(reason.kind.rawValue)), ("message", .text(message))]))
        }
        if let value = sandbox.makeValue(table(reason.message)) { return value }
        let utf8 = reason.message.utf8
        guard utf8.count > Self.bestAttemptMessageCut else { return nil }
        sandbox.collectGarbage()
        sandbox.arm(limits)
        let cut = String(decoding: utf8.prefix(Self.bestAttemptMessageCut), as: UTF8.self)
        return sandbox.makeValue(table("\(cut)… (cut from \(utf8.count) bytes)"))
    }

    /// Runs `afterDelivery(request, content)` after the content was handed over, under its own
    /// CPU budget and what is left of the request's deadline, then lets go of the session.
    /// What it does changes nothing delivered: a failure or a limit is a host warning.
    func runAfterDelivery(_ run: RequestRun, session: Session) -> PhaseCost {
        sandbox.resetMemoryPeak()
        let limits = RunLimits(
            cpuTime: run.limits.afterDeliveryCPUTime, memoryBytes: max(sandbox.memoryUsed, run.limits.memoryBytes),
            deadline: run.deadline)
        let (returned, cpu) = inPhase(run, .afterDelivery, limits) { () -> Bool in
            switch sandbox.call("afterDelivery", in: session.environment, arguments: [session.request, session.content]) {
            case .completed, .missing: return true
            case .error(let message): run.log(.warn, "afterDelivery failed: \(message)", host: true)
            case .limit(let kind): run.log(.warn, "afterDelivery was stopped: \(DeliveryResult.Reason.afterDeliveryLimit(kind, run.limits, cause: run.afterDeliveryCause))", host: true)
            }
            return false
        }
        // Its budget is also checked when it returns: C code runs without the hook.
        if returned, cpu > run.limits.afterDeliveryCPUTime {
            sandbox.markLimitHit()
            run.log(.warn, "afterDelivery returned past its budget: \(DeliveryResult.Reason.afterDeliveryLimit(.cpu, run.limits, cause: nil))", host: true)
        }
        finish(session)
        return PhaseCost(cpu: cpu, peak: sandbox.memoryPeak)
    }

    /// Lets go of a request's Lua values; collects garbage when the state holds a lot, so the
    /// next request starts near the state's base size.
    func finish(_ session: Session) {
        sandbox.release(session.content)
        sandbox.release(session.request)
        sandbox.release(session.environment)
        if sandbox.memoryUsed > 512 * 1024 { sandbox.collectGarbage() }
    }
}
