import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NotificationModel
import ScriptHost
import Synchronization

/// Deliveries in worker processes (`--isolation process`): each app is served by one worker
/// (chosen by its name, so its requests stay in order), and the parent answers every request
/// on time whatever the worker does. A worker that has not answered a request by its deadline
/// plus `bestAttempt`'s time plus a grace is killed as stuck; a worker that ends (a crash, or
/// itself, after a Lua thread got stuck) is replaced. The requests it held are answered here,
/// once: the original content, with reason `time` for a worker killed as stuck and `error` for
/// one that ended.
final class ProcessBackend: ServeBackend {
    /// How long past a request's own deadline and `bestAttempt`'s time the parent waits before
    /// it takes the worker for stuck.
    static let grace = Duration.milliseconds(500)

    private let slots: [WorkerSlot]
    private let start: @Sendable () throws -> WorkerProcess
    private let limits: ScriptLimits
    private let nextNumber = Atomic<Int>(0)
    private let replaced = Atomic<Int>(0)
    /// Set when serving ends: no worker is started from then on.
    private let ending = Atomic<Bool>(false)
    private let log: ServeLog
    private let watchdog: DispatchSourceHolder

    /// `count` workers, each started by `start`; `limits` are the requests' limits unless a
    /// request brings its own.
    init(count: Int, limits: ScriptLimits, log: ServeLog, start: @escaping @Sendable () throws -> WorkerProcess) throws {
        self.start = start
        self.limits = limits
        self.log = log
        slots = try (0..<max(1, count)).map { _ in WorkerSlot(try start()) }
        let slots = self.slots
        watchdog = DispatchSourceHolder(every: .milliseconds(50)) {
            let now = ContinuousClock.now
            for slot in slots {
                let worker = slot.current.withLock { $0 }
                if let worker, worker.overdue(at: now), !worker.wasKilledAsStuck {
                    log.event("worker-stuck", ["pid": .integer(Int64(worker.pid))],
                        text: "serve: worker \(worker.pid) did not answer by a request's deadline; it is killed and replaced")
                    worker.killAsStuck()
                }
            }
        }
    }

    var laneExecutor: (any TaskExecutor)? { nil }

    var held: (luaThreads: Int, workers: Int) {
        (0, slots.reduce(0) { $0 + ($1.current.withLock { $0.map { $0.hasEnded ? 0 : 1 } ?? 0 }) })
    }

    /// How many workers were replaced so far.
    var replacedCount: Int { replaced.load(ordering: .relaxed) }

    nonisolated(nonsending) func serve(_ accepted: AcceptedRequest, _ request: NotificationRequest, id: JSONValue) async -> ServedAnswer {
        let slot = slots[Self.slot(of: accepted.app, among: slots.count)]
        let number = nextNumber.add(1, ordering: .relaxed).newValue
        let limits = request.limits ?? self.limits
        let giveUpAt = ContinuousClock.now + limits.time + limits.bestAttemptTime + Self.grace
        // A worker that retired before it read the line is replaced, and the line sent again.
        for _ in 0..<3 {
            guard let worker = worker(in: slot) else {
                return fallback(request, id: id, .error, "no worker process could be started for this request")
            }
            if let answer = await worker.request(number, accepted.line, giveUpAt: giveUpAt) {
                return Self.summary(of: answer)
            }
            if worker.retired { continue }
            if worker.wasKilledAsStuck {
                return fallback(request, id: id, .time, "the worker process serving this app did not answer by the deadline (a script stuck where no check reaches); it was killed and replaced")
            }
            return fallback(request, id: id, .error, "the worker process serving this app ended before it answered (it crashed or was killed); it was replaced")
        }
        return fallback(request, id: id, .error, "the worker processes serving this app kept ending before they read the request")
    }

    /// The slot's worker, a new one in place of one that has ended.
    private func worker(in slot: WorkerSlot) -> WorkerProcess? {
        slot.current.withLock { current -> WorkerProcess? in
            if let worker = current, !worker.hasEnded { return worker }
            guard !ending.load(ordering: .relaxed) else { return nil }
            if current != nil { replaced.add(1, ordering: .relaxed) }
            current = try? start()
            return current
        }
    }

    func tick() {}

    func shutdown() {
        ending.store(true, ordering: .relaxed)
        watchdog.cancel()
        let workers = slots.compactMap { $0.current.withLock { $0 } }
        for worker in workers { worker.closeInput() }
        for worker in workers { worker.reap(timeout: limits.time + limits.bestAttemptTime + Self.grace) }
    }

    func abort() {
        ending.store(true, ordering: .relaxed)
        watchdog.cancel()
        for worker in slots.compactMap({ $0.current.withLock { $0 } }) { worker.terminate() }
    }

    /// The original content, as a fallback with `kind` and `message`.
    private func fallback(_ request: NotificationRequest, id: JSONValue, _ kind: DeliveryResult.ReasonKind, _ message: String) -> ServedAnswer {
        let reason = DeliveryResult.Reason(kind: kind, message: message)
        let result = DeliveryResult(
            outcome: .fallback, reason: reason, content: NotificationContent(payload: request.payload),
            stats: .init(cpuMs: 0, wallMs: 0, memoryPeakBytes: 0))
        return ServedAnswer(line: result.jsonLineBytes(id: id), outcome: "fallback", reason: reason, script: nil)
    }

    /// What the logs and counters need from a worker's answer line.
    static func summary(of line: [UInt8]) -> ServedAnswer {
        let object = (try? JSONValue(jsonUTF8: line))?.objectValue ?? [:]
        let reason = object["reason"]?.objectValue.flatMap { reason -> DeliveryResult.Reason? in
            guard let kind = reason["kind"]?.stringValue.flatMap(DeliveryResult.ReasonKind.init(rawValue:)) else { return nil }
            return DeliveryResult.Reason(kind: kind, message: reason["message"]?.stringValue ?? "")
        }
        let script = object["script"]?.objectValue.flatMap { script -> ScriptIdentity? in
            guard let sha = script["sha256"]?.stringValue else { return nil }
            return ScriptIdentity(version: { if case .integer(let n) = script["version"] { return Int(n) } else { return nil } }(), sha256: sha)
        }
        return ServedAnswer(line: line, outcome: object["outcome"]?.stringValue ?? "error", reason: reason, script: script)
    }

    /// Which worker serves `app`: the same one always.
    static func slot(of app: String, among count: Int) -> Int {
        // FNV-1a: stable across runs, unlike Swift's seeded hash.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in app.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int(hash % UInt64(count))
    }
}

/// Where one worker lives: the process serving it now (a new one after a replacement).
final class WorkerSlot: Sendable {
    let current: Mutex<WorkerProcess?>

    init(_ worker: WorkerProcess) {
        current = Mutex(worker)
    }
}

/// A repeating timer on a queue of its own, cancelled once.
final class DispatchSourceHolder: Sendable {
    private let timer: Mutex<(any DispatchSourceTimer)?>

    init(every interval: Duration, _ work: @escaping @Sendable () -> Void) {
        let made = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "serve-worker-watchdog"))
        let ms = Int(interval / .milliseconds(1))
        made.schedule(deadline: .now() + .milliseconds(ms), repeating: .milliseconds(ms))
        made.setEventHandler(handler: work)
        made.resume()
        timer = Mutex(made)
    }

    func cancel() {
        timer.withLock { $0?.cancel() }
    }
}
