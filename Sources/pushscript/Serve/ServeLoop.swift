import Dispatch
import Foundation
import NotificationModel
import ScriptHost
import Synchronization

/// `serve`'s lanes: `--concurrency` tasks, each of which reads the next line (under the
/// intake's lock), serves it when no other lane serves its app, then that app's requests read
/// meanwhile, and writes each answer as soon as it is ready. A lane that reads a request of an
/// app another lane serves queues it there and reads on, so that no app waits for another.
struct ServeLoop: Sendable {
    let intake: ServeIntake
    let queues: AppQueues
    let output: AnswerOutput
    let backend: any ServeBackend
    let metrics: ServeMetrics
    /// Where each answer is logged; nil in a worker process, whose parent logs the answers.
    let log: ServeLog?
    /// The app of requests that name none (`--app`).
    let defaultApp: String?
    /// The system's deadline of a request whose line gives no `expireMs` (`--expire-ms`).
    let defaultExpiry: Duration?

    /// Runs `lanes` lanes until reading stops and every lane has written its answers.
    func run(lanes: Int) async {
        let executor = backend.laneExecutor
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<max(1, lanes) {
                group.addTask(executorPreference: executor) { await lane(index) }
            }
        }
        output.finish()
    }

    nonisolated(nonsending) private func lane(_ index: Int) async {
        let counts = metrics.lane()
        // made once: a closure made at each take would retain the output each time
        let flush: () -> Void = { [output] in output.flush() }
        while true {
            // Answers ready are written before the lane waits.
            switch await intake.take(lane: index, beforeWaiting: flush) {
            case .end:
                return
            case .answer(let index, let line, let bytes, let tag):
                answerInvalid(index, line, cost: bytes, tag: tag, counts)
            case .unreadable(let accepted):
                await serve(accepted, counts)
            case .serve(let first):
                var next: AcceptedRequest? = first
                while let request = next {
                    await serve(request, counts)
                    next = queues.next(of: request.app, lane: index)
                }
            }
        }
    }

    private func answerInvalid(_ index: Int, _ line: [UInt8], cost: Int, tag: [UInt8], _ counts: ServeMetrics.Lane) {
        counts.recordInvalid()
        log?.invalid(answer: line)
        output.put(index, tag.isEmpty ? line : tag + line, cost: cost)
    }

    nonisolated(nonsending) private func serve(_ accepted: AcceptedRequest, _ counts: ServeMetrics.Lane) async {
        let id: JSONValue
        let notification: NotificationRequest
        switch ServeLine.parse(accepted.line, defaultApp: defaultApp, defaultExpiry: defaultExpiry) {
        case .invalid(let invalidID, let message):
            return answerInvalid(accepted.index, ServeLine.errorLine(id: invalidID, message: message), cost: accepted.bytes, tag: accepted.tag, counts)
        case .request(let requestID, var parsed):
            parsed.arrivedAt = accepted.arrivedAt
            (id, notification) = (requestID, parsed)
        }
        let request = accepted
        let started = ContinuousClock.now
        let answer = await backend.serve(accepted, notification, id: id)
        output.put(request.index, accepted.tag.isEmpty ? answer.line : accepted.tag + answer.line, cost: request.bytes)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        counts.record(app: request.app, outcome: answer.outcome, reason: answer.reason?.kind.rawValue, script: answer.script, seconds: seconds)
        log?.answered(id: id, app: request.app, outcome: answer.outcome, reason: answer.reason, milliseconds: seconds * 1000)
    }
}

/// What `serve` does about once a second while it runs, on a thread of its own: the
/// backend's upkeep (idle apps' Lua states released) and, every few seconds, the metrics file.
final class ServeHousekeeping: Sendable {
    /// How often the metrics file is written, in seconds.
    static let metricsInterval = 5

    private let stopped = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let work: @Sendable (_ writeMetrics: Bool) -> Void

    init(_ work: @escaping @Sendable (_ writeMetrics: Bool) -> Void) {
        self.work = work
        let thread = Thread { [stopped, ended] in
            var tick = 0
            while stopped.wait(timeout: .now() + 1) == .timedOut {
                tick += 1
                work(tick % Self.metricsInterval == 0)
            }
            ended.signal()
        }
        thread.name = "serve-housekeeping"
        thread.start()
    }

    /// Stops the thread and does the work a last time (metrics written).
    func finish() {
        stopped.signal()
        ended.wait()
        work(true)
    }
}
