import Synchronization

/// One request on its way, from ``ScriptHost/start(_:script:)`` (or
/// ``ScriptHost/start(_:from:)``) to its end: the handle a Notification Service Extension
/// keeps between `didReceive(_:withContentHandler:)` and `serviceExtensionTimeWillExpire()`.
///
/// The request runs by itself once started. ``delivered()`` returns when its content is
/// handed over — call the content handler then; ``finished()`` returns the whole result once
/// `afterDelivery` (if the script defines it) has ended too — let the process go after it.
/// ``expire()`` says the system's time ran out: the script is stopped wherever it is and the
/// best attempt is delivered at once.
///
/// ```swift
/// let session = host.start(request, script: lookup)
/// let delivered = await session.delivered()   // hand delivered.content over
/// let finished = await session.finished()     // receipts sent after delivery are in finished.posts
/// ```
public final class DeliverySession: Sendable {
    /// The request's identifier (its `apns-id`, or the one made for it): `request.identifier`.
    public let identifier: String

    let run: RequestRun
    private let delivery = ResultPromise()
    private let completion = ResultPromise()

    init(run: RequestRun) {
        self.run = run
        identifier = run.identifier
    }

    /// Says the system's time ran out (`serviceExtensionTimeWillExpire`): the script is
    /// stopped wherever it is — in Lua, in a C function that counts its steps, in a host call,
    /// waiting for a download (which is cancelled) or for a Lua thread — and the best attempt
    /// is delivered: `bestAttempt(content, reason, request)` is called with reason kind `time`
    /// and a message saying the system's time ran out, within its own wall-clock budget
    /// (``ScriptLimits/bestAttemptTime``) plus 50 ms of this call. During `bestAttempt` it
    /// lets `bestAttempt` finish within that budget; after delivery it stops `afterDelivery`
    /// (what was delivered stays so). Any thread, any number of times: after the first,
    /// nothing more happens.
    public func expire() { run.expire() }

    /// The result as it was when the content was handed over: wait for it, then give
    /// ``DeliveryResult/content`` to the system. Returns once and for all callers alike; its
    /// `stats.deliveredMs` says when.
    public func delivered() async -> DeliveryResult { await delivery.value() }

    /// The whole result, once `afterDelivery` (if the script defines it) has ended: the same
    /// outcome, reason and content as ``delivered()``, with the posts and log entries of
    /// `afterDelivery` added and `stats.wallMs` the whole request's time.
    public func finished() async -> DeliveryResult { await completion.value() }

    /// Hands the content over: ``delivered()`` returns this from now on.
    func deliver(_ result: consuming DeliveryResult) { delivery.resolve(ResultPromise.Box(result)) }

    /// Ends the request: ``finished()`` returns this from now on (and ``delivered()`` too, if
    /// nothing was handed over before).
    func finish(_ result: consuming DeliveryResult) {
        let box = ResultPromise.Box(result)
        delivery.resolve(box)
        completion.resolve(box)
    }
}

/// A result that is given once and awaited by any number of tasks. It is kept in a box of
/// its own, so that giving it to both of a session's promises copies none of its fields.
final class ResultPromise: Sendable {
    /// A result, shared by reference.
    final class Box: Sendable {
        let result: DeliveryResult
        init(_ result: consuming DeliveryResult) { self.result = result }
    }

    private struct State {
        var box: Box?
        var waiting: [CheckedContinuation<DeliveryResult, Never>] = []
    }

    private let state = Mutex(State())

    /// Gives the result, unless one was given before.
    func resolve(_ box: Box) {
        let waiting = state.withLock { s -> [CheckedContinuation<DeliveryResult, Never>] in
            guard s.box == nil else { return [] }
            s.box = box
            defer { s.waiting = [] }
            return s.waiting
        }
        for continuation in waiting { continuation.resume(returning: box.result) }
    }

    /// The result, once given.
    nonisolated(nonsending) func value() async -> DeliveryResult {
        if let box = state.withLock({ $0.box }) { return box.result }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> Box? in
                if let box = s.box { return box }
                s.waiting.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready.result) }
        }
    }
}
