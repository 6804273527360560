import LuaSandbox
import NotificationModel

/// What `didReceive` left for the rest of the request.
struct MainPhase: Sendable {
    enum End: Sendable {
        case completed
        /// The script never ran: the original content is delivered.
        case load(String)
        /// `didReceive` did not finish.
        case failed(DeliveryResult.Reason)
    }

    var end: End
    var hasBestAttempt = false
    var cpu: Duration = .zero
    var peak = 0
    /// The environment and objects `bestAttempt` runs with, when it is to run.
    var session: Session?
}

/// The Lua values of one request in one sandbox.
struct Session: Sendable {
    let environment: LuaEnvironment
    let request: LuaReference
    let content: LuaReference
}

/// What a `bestAttempt` run cost.
struct BestAttemptPhase: Sendable {
    var cpu: Duration = .zero
    var peak = 0
}

extension HostedSandbox {
    /// Runs the chunk and `didReceive` under the request's limits. On the Lua thread.
    func runMain(_ run: RequestRun, script: Script) -> MainPhase {
        binding = Binding(run: run, token: 1)
        defer { binding = nil }
        let cpuStart = currentThreadCPUTime()
        sandbox.resetMemoryPeak()
        sandbox.arm(RunLimits(cpuTime: run.limits.cpuTime, memoryBytes: run.limits.memoryBytes, deadline: run.deadline))
        defer { sandbox.disarm() }
        var phase = prepare(run, script: script)
        guard let session = phase.session else {
            phase.cpu = currentThreadCPUTime() - cpuStart
            phase.peak = sandbox.memoryPeak
            return phase
        }
        let status = sandbox.call("didReceive", in: session.environment, arguments: [session.request, session.content])
        switch status {
        case .completed, .missing: phase.end = .completed
        case .error(let message): phase.end = .failed(.init(kind: .error, message: message))
        case .limit(let kind): phase.end = .failed(Self.limitReason(kind, run.limits))
        }
        if let problem = readBackUserInfo(Binding(run: run, token: 1), object: session.content) {
            if case .completed = phase.end {
                phase.end = .failed(.init(kind: .error, message: problem))
            } else {
                run.log(.warn, problem, host: true)
            }
        }
        phase.cpu = currentThreadCPUTime() - cpuStart
        // The budget is also checked when the handler returns: C code runs without the hook.
        if case .completed = phase.end, phase.cpu > run.limits.cpuTime {
            sandbox.markLimitHit()
            phase.end = .failed(Self.limitReason(.cpu, run.limits))
        }
        phase.peak = sandbox.memoryPeak
        if case .failed = phase.end, phase.hasBestAttempt { return phase }
        finish(session)
        phase.session = nil
        return phase
    }

    /// Compiles the script if needed, makes a fresh environment, runs the chunk and makes the
    /// request's objects. A phase with a session when `didReceive` can be called.
    private func prepare(_ run: RequestRun, script: Script) -> MainPhase {
        let chunk: CompiledChunk
        switch self.chunk(for: script) {
        case .compiled(let compiled): chunk = compiled
        case .failed(let status): return MainPhase(end: .load(Self.loadMessage(status, script: script, run.limits)))
        }
        installNewHooks()
        moduleBase = script.directory
        guard let environment = makeRequestEnvironment() else {
            return MainPhase(end: .load("not enough memory to set up \(script.name)"))
        }
        switch sandbox.run(chunk, in: environment) {
        case .completed, .missing: break
        case let status:
            sandbox.release(environment)
            return MainPhase(end: .load(Self.loadMessage(status, script: script, run.limits)))
        }
        guard sandbox.typeOfGlobal("didReceive", in: environment) == "function" else {
            sandbox.release(environment)
            return MainPhase(end: .load("\(script.name) defines no didReceive function"))
        }
        let hasBestAttempt = sandbox.typeOfGlobal("bestAttempt", in: environment) == "function"
        guard let request = makeRequestValue(run) else {
            sandbox.release(environment)
            return MainPhase(end: .failed(Self.limitReason(.memory, run.limits)))
        }
        guard let content = makeContentObject(run) else {
            sandbox.release(environment)
            sandbox.release(request)
            return MainPhase(end: .failed(Self.limitReason(.memory, run.limits)))
        }
        return MainPhase(
            end: .completed, hasBestAttempt: hasBestAttempt,
            session: Session(environment: environment, request: request, content: content))
    }

    /// Runs `bestAttempt(content, reason)` under its own small budget. On the Lua thread.
    func runBestAttempt(_ run: RequestRun, session: Session, reason: DeliveryResult.Reason, token: Int) -> BestAttemptPhase {
        binding = Binding(run: run, token: token)
        defer { binding = nil }
        let cpuStart = currentThreadCPUTime()
        sandbox.arm(RunLimits(
            cpuTime: run.limits.bestAttemptCPUTime,
            memoryBytes: max(sandbox.memoryUsed, run.limits.memoryBytes) + run.limits.bestAttemptMemoryHeadroom,
            deadline: .after(run.limits.bestAttemptTime)))
        defer { sandbox.disarm() }
        let reasonTable = LuaValue.table(LuaTable(fields: [("kind", .text(reason.kind.rawValue)), ("message", .text(reason.message))]))
        if let reasonValue = sandbox.makeValue(reasonTable) {
            let status = sandbox.call("bestAttempt", in: session.environment, arguments: [session.content, reasonValue])
            sandbox.release(reasonValue)
            switch status {
            case .completed, .missing:
                // Its budget is also checked when it returns: C code runs without the hook.
                if currentThreadCPUTime() - cpuStart > run.limits.bestAttemptCPUTime {
                    sandbox.markLimitHit()
                    run.log(.warn, "bestAttempt returned past its budget: \(Self.bestAttemptLimitMessage(.cpu, run.limits))", host: true)
                }
            case .error(let message): run.log(.warn, "bestAttempt failed: \(message)", host: true)
            case .limit(let kind): run.log(.warn, "bestAttempt was stopped: \(Self.bestAttemptLimitMessage(kind, run.limits))", host: true)
            }
        }
        if let problem = readBackUserInfo(Binding(run: run, token: token), object: session.content) {
            run.log(.warn, "bestAttempt: \(problem)", host: true)
        }
        finish(session)
        return BestAttemptPhase(cpu: currentThreadCPUTime() - cpuStart, peak: sandbox.memoryPeak)
    }

    /// Runs the script from scratch in this (fresh) sandbox and calls only `bestAttempt`: the
    /// state that ran `didReceive` is stuck and abandoned.
    func runBestAttemptFresh(_ run: RequestRun, script: Script, reason: DeliveryResult.Reason, token: Int) -> BestAttemptPhase {
        binding = Binding(run: run, token: token)
        sandbox.resetMemoryPeak()
        sandbox.arm(RunLimits(
            cpuTime: run.limits.bestAttemptCPUTime, memoryBytes: run.limits.memoryBytes + run.limits.bestAttemptMemoryHeadroom,
            deadline: .after(run.limits.bestAttemptTime)))
        let phase = prepare(run, script: script)
        sandbox.disarm()
        binding = nil
        guard let session = phase.session else { return BestAttemptPhase() }
        guard phase.hasBestAttempt else {
            finish(session)
            return BestAttemptPhase()
        }
        return runBestAttempt(run, session: session, reason: reason, token: token)
    }

    /// Lets go of a request's Lua values; collects garbage when the state holds a lot, so the
    /// next request starts near the state's base size.
    func finish(_ session: Session) {
        sandbox.release(session.content)
        sandbox.release(session.request)
        sandbox.release(session.environment)
        if sandbox.memoryUsed > 512 * 1024 { sandbox.collectGarbage() }
    }

    static func limitReason(_ kind: LimitKind, _ limits: ScriptLimits) -> DeliveryResult.Reason {
        switch kind {
        case .cpu:
            return .init(kind: .cpu, message: "the script used more than its \(Self.ms(limits.cpuTime)) ms of CPU")
        case .memory:
            return .init(kind: .memory, message: "the script's Lua state needed more than \(Self.mib(limits.memoryBytes)) of memory")
        case .time:
            return .init(kind: .time, message: "the deadline of \(Self.ms(limits.time)) ms came before didReceive returned")
        }
    }

    static func bestAttemptLimitMessage(_ kind: LimitKind, _ limits: ScriptLimits) -> String {
        switch kind {
        case .cpu: return "it used more than its \(ms(limits.bestAttemptCPUTime)) ms of CPU"
        case .memory: return "it needed more than its \(mib(limits.bestAttemptMemoryHeadroom)) of extra memory"
        case .time: return "it ran longer than its \(ms(limits.bestAttemptTime)) ms"
        }
    }

    static func loadMessage(_ status: RunStatus, script: Script, _ limits: ScriptLimits) -> String {
        switch status {
        case .error(let message): return message
        case .limit(.time): return "\(script.name) did not load: the deadline of \(ms(limits.time)) ms came while its chunk ran"
        case .limit(let kind): return "\(script.name) did not load: \(limitReason(kind, limits).message)"
        case .completed, .missing: return "\(script.name) did not load"
        }
    }

    static func ms(_ d: Duration) -> String {
        let v = d.milliseconds
        return v == v.rounded() ? String(Int(v)) : String(v)
    }

    static func mib(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
