import Foundation
import LuaSandbox
import Synchronization

/// Where a request's script comes from.
enum ScriptSource: Sendable {
    /// Found by the caller.
    case lookup(ScriptLookup)
    /// The one a script directory has in service for the request's app.
    case directory(ScriptDirectory)
}

extension ScriptHost {
    /// Starts delivering `request` with `lookup`'s script and returns its session at once: the
    /// request runs by itself, ``DeliverySession/delivered()`` gives the content when it is
    /// handed over, ``DeliverySession/finished()`` the whole result after `afterDelivery`,
    /// and ``DeliverySession/expire()`` says the system's time ran out.
    public func start(_ request: NotificationRequest, script lookup: ScriptLookup) -> DeliverySession {
        start(request, .lookup(lookup), answers: nil)
    }

    /// ``start(_:script:)`` with `answers` for the request's downloads and posts ahead of the
    /// host's own and the network.
    package func start(_ request: NotificationRequest, script lookup: ScriptLookup, answers: RequestAnswers?) -> DeliverySession {
        start(request, .lookup(lookup), answers: answers)
    }

    /// Starts delivering `request` with the script `directory` has in service for the
    /// request's app (``NotificationRequest/resolvedApp``), as ``start(_:script:)`` does.
    public func start(_ request: NotificationRequest, from directory: ScriptDirectory) -> DeliverySession {
        start(request, .directory(directory), answers: nil)
    }

    private func start(_ request: NotificationRequest, _ source: ScriptSource, answers: RequestAnswers?) -> DeliverySession {
        let session = makeSession(request, answers: answers)
        Task { await perform(session, request, source) }
        return session
    }

    /// What looking a script up came to within a request's time.
    enum Lookup: Sendable {
        case found(ScriptLookup)
        /// The request falls back at once: its original content, for this reason.
        case fallback(DeliveryResult.Reason)
    }

    /// The script `directory` has for `app`, waited for no longer than the request's deadline
    /// or the system's time: a new or changed file is checked on a Lua thread first, and when
    /// every Lua thread is held by stuck jobs no check can run, so the request falls back at
    /// once.
    nonisolated(nonsending) func lookUp(_ app: String?, in directory: ScriptDirectory, for run: RequestRun, arrivedAt: ContinuousClock.Instant? = nil) async -> Lookup {
        let reload: Task<ScriptLookup, Never>
        let file: String
        switch directory.lookupStep(for: app, arrivedAt: arrivedAt) {
        case .ready(let lookup): return .found(lookup)
        case .wait(let task, let name): (reload, file) = (task, name)
        }
        for pool in [directory.executor.pool, services.executor.pool] where pool.isHeldByStuckJobs {
            return .fallback(.init(kind: .time, message: "the script was not run: \(file) must be checked first, and all \(pool.maxThreads) Lua threads are held by scripts that did not stop at their deadlines"))
        }
        guard let lookup = await Self.value(of: reload, within: run) else {
            return .fallback(DeliveryResult.Reason.time(run.timeCause, .lookup(file)))
        }
        return .found(lookup)
    }

    /// What `task` returns, or nil when the run's deadline comes or its time runs out first
    /// (the task goes on; others may wait for it).
    static func value<T: Sendable>(of task: Task<T, Never>, within run: RequestRun) async -> T? {
        let gate = Gate<T>()
        return await withCheckedContinuation { continuation in
            gate.set(continuation)
            let deadline = run.deadline.continuousInstant
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                gate.resume(nil)
            }
            let watch = run.watchExpiry {
                timer.cancel()
                gate.resume(nil)
            }
            Task {
                gate.resume(await task.value)
                timer.cancel()
                run.unwatchExpiry(watch)
            }
        }
    }
}

/// Resumes a continuation once, with the first value given.
private final class Gate<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T?, Never>?, done: Bool)>((nil, false))

    func set(_ continuation: CheckedContinuation<T?, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func resume(_ value: T?) {
        let continuation = state.withLock { s -> CheckedContinuation<T?, Never>? in
            guard !s.done else { return nil }
            s.done = true
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume(returning: value)
    }
}
