import NotificationModel
import Synchronization

/// Why `serve` stopped reading.
enum StopReason: Sendable, Equatable {
    /// Standard input ended.
    case endOfInput
    /// A signal asked for a stop (drain).
    case signal(Int32)
    /// Standard output could not be written (a closed pipe).
    case outputClosed
}

/// `serve`'s input for its lanes: lines read in order and routed to their app's queue under one
/// lock, so that an app's requests keep their input order whichever lane reads them. Under the
/// lock a line is only walked for its `app`; it is read whole by the lane that serves it.
///
/// How far reading runs ahead of the answers written is bounded twice: at most `maximumLines`
/// lines and `maximumBytes` bytes read and not yet answered. When either bound is reached,
/// reading waits until answers written bring both back to half.
final class ServeIntake: Sendable {
    /// What a lane is to do next.
    enum Taken: Sendable {
        /// Serve this request, then its app's requests read meanwhile.
        case serve(AcceptedRequest)
        /// Write this answer for line `index` (a line over the cap), after `tag`.
        case answer(index: Int, line: [UInt8], bytes: Int, tag: [UInt8])
        /// Answer this line, which is not a JSON object, with what is wrong with it.
        case unreadable(AcceptedRequest)
        /// Reading has stopped.
        case end
    }

    private struct State: ~Copyable {
        let source: LineSource
        var nextIndex = 0
        var stopped: StopReason?
        var fetching = false
        /// How many reads that would have waited have come back.
        var fills = 0
        var inputWaiters: [CheckedContinuation<Void, Never>] = []
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private enum Step {
        case taken(Taken)
        case waitForInput(fills: Int)
        case waitForRoom
    }

    private let state: Mutex<State>
    private let queues: AppQueues
    private let defaultApp: String?
    private let maximumLineBytes: Int
    private let maximumLines: Int
    private let maximumBytes: Int
    private let pendingLines = Atomic<Int>(0)
    private let pendingBytes = Atomic<Int>(0)
    private let waitingForRoom = Atomic<Bool>(false)
    /// Whether each line begins with a tag to answer after (a worker process's input: the
    /// parent's number for the request and a space).
    private let tagged: Bool

    /// An intake over `source` that routes requests through `queues`.
    init(
        source: sending LineSource, queues: AppQueues, defaultApp: String?, maximumLineBytes: Int, maximumLines: Int,
        maximumBytes: Int, tagged: Bool = false
    ) {
        self.tagged = tagged
        state = Mutex(State(source: source))
        self.queues = queues
        self.defaultApp = defaultApp
        self.maximumLineBytes = maximumLineBytes
        self.maximumLines = max(1, maximumLines)
        self.maximumBytes = max(1, maximumBytes)
    }

    /// How many lines were read and taken as requests or answered as errors (blank ones left out).
    var acceptedCount: Int { state.withLock { $0.nextIndex } }

    /// Why reading stopped, once it has.
    var stopReason: StopReason? { state.withLock { $0.stopped } }

    /// The next thing for lane `lane` to do: a request to serve (a request of an app another
    /// lane serves is queued for that lane, and reading goes on), an error answer, or the end.
    /// `beforeWaiting` is called before the lane waits for input or for room in the window.
    nonisolated(nonsending) func take(lane: Int = 0, beforeWaiting: () -> Void = {}) async -> Taken {
        while true {
            let step = state.withLock { s in nextStep(&s, lane: lane) }
            if case .taken = step {} else { beforeWaiting() }
            switch step {
            case .taken(let taken):
                return taken
            case .waitForInput(let fills):
                await withCheckedContinuation { continuation in
                    let now = state.withLock { s -> Bool in
                        if s.stopped != nil || s.fills != fills { return true }
                        s.inputWaiters.append(continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
            case .waitForRoom:
                await withCheckedContinuation { continuation in
                    let now = state.withLock { s -> Bool in
                        if s.stopped != nil || hasRoom { return true }
                        s.roomWaiters.append(continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
            }
        }
    }

    private var hasRoom: Bool {
        pendingLines.load(ordering: .sequentiallyConsistent) < maximumLines
            && pendingBytes.load(ordering: .sequentiallyConsistent) < maximumBytes
    }

    private func nextStep(_ s: inout State, lane: Int) -> Step {
        let step = readStep(&s, lane: lane)
        // A lane that waits for room took back what was left before it began to wait; an app
        // left since (by this step) would otherwise wait for its busy lane while that lane
        // sits idle. Such lanes are let go to take it (resuming only schedules them).
        if case .taken = step, !s.roomWaiters.isEmpty, queues.hasLeft {
            let waiters = s.roomWaiters
            s.roomWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
        }
        return step
    }

    private func readStep(_ s: inout State, lane: Int) -> Step {
        // An app left for a busy lane for too long goes first; one left is also taken back
        // before this lane would wait, or when it has left two in a row (see AppQueues).
        if let overdue = queues.steal(lane: lane, overdueOnly: true) { return .taken(.serve(overdue)) }
        var leftInARow = 0
        while true {
            if s.stopped != nil { return queues.steal(lane: lane).map { .taken(.serve($0)) } ?? .taken(.end) }
            if !hasRoom {
                if let left = queues.steal(lane: lane) { return .taken(.serve(left)) }
                waitingForRoom.store(true, ordering: .sequentiallyConsistent)
                if !hasRoom { return .waitForRoom }
                waitingForRoom.store(false, ordering: .sequentiallyConsistent)
            }
            switch s.source.poll(reading: !s.fetching) {
            case .end:
                if let left = queues.steal(lane: lane) { return .taken(.serve(left)) }
                // Lanes that wait are let go; resuming only schedules them.
                for waiter in halt(&s, .endOfInput) { waiter.resume() }
                return .taken(.end)
            case .wouldWait:
                if let left = queues.steal(lane: lane) { return .taken(.serve(left)) }
                if !s.fetching {
                    s.fetching = true
                    s.source.requestFill { [self] bytes in filled(bytes) }
                }
                return .waitForInput(fills: s.fills)
            case .line(.tooLong(let head, let length)):
                let index = s.nextIndex
                s.nextIndex += 1
                charge(head.count)
                let (tag, rest) = split(head)
                return .taken(.answer(
                    index: index, line: ServeLine.tooLong(head: Array(rest), length: length - tag.count, maximum: maximumLineBytes),
                    bytes: head.count, tag: tag))
            case .line(.line(let whole)):
                // A blank line (a JSON line begins with no space, as a rule: the check is short).
                if whole.first.map({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) ?? true,
                    whole.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
                {
                    continue
                }
                let (tag, rest) = split(whole)
                let bytes = tag.isEmpty ? whole : Array(rest)
                let index = s.nextIndex
                s.nextIndex += 1
                charge(bytes.count)
                // Only the app is found here, under the lock; the line is read whole by the
                // lane that serves it.
                guard let app = ServeLine.app(in: bytes, defaultApp: defaultApp) else {
                    // Not an object: what is wrong is said by the lane, reading it whole.
                    return .taken(.unreadable(AcceptedRequest(index: index, app: "", line: bytes, tag: tag)))
                }
                let accepted = AcceptedRequest(index: index, app: app, line: bytes, tag: tag, arrivedAt: s.source.lastReadAt)
                switch queues.claim(accepted, lane: lane) {
                case .serve:
                    return .taken(.serve(accepted))
                case .queued:
                    continue
                case .left:
                    leftInARow += 1
                    if leftInARow >= 2, let left = queues.steal(lane: lane) { return .taken(.serve(left)) }
                }
            }
        }
    }

    /// A tagged line's tag (through its first space) and the rest; no tag when untagged.
    private func split(_ line: [UInt8]) -> ([UInt8], ArraySlice<UInt8>) {
        guard tagged, let space = line.firstIndex(of: 0x20) else { return ([], line[...]) }
        return (Array(line[...space]), line[(space + 1)...])
    }

    private func charge(_ bytes: Int) {
        pendingLines.add(1, ordering: .sequentiallyConsistent)
        pendingBytes.add(bytes, ordering: .sequentiallyConsistent)
    }

    /// Notes that the answers of `lines` lines of `bytes` bytes together were written (or given
    /// up): they no longer count against the read-ahead bounds.
    func answered(lines: Int, bytes: Int) {
        pendingLines.subtract(lines, ordering: .sequentiallyConsistent)
        pendingBytes.subtract(bytes, ordering: .sequentiallyConsistent)
        guard waitingForRoom.load(ordering: .sequentiallyConsistent) else { return }
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard pendingLines.load(ordering: .sequentiallyConsistent) <= maximumLines / 2,
                pendingBytes.load(ordering: .sequentiallyConsistent) <= maximumBytes / 2
            else { return [] }
            waitingForRoom.store(false, ordering: .sequentiallyConsistent)
            defer { s.roomWaiters.removeAll() }
            return s.roomWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Stops reading (the first reason given is kept); the lanes finish what they hold.
    func stop(_ reason: StopReason) {
        let waiters = state.withLock { s in halt(&s, reason) }
        for waiter in waiters { waiter.resume() }
    }

    private func halt(_ s: inout State, _ reason: StopReason) -> [CheckedContinuation<Void, Never>] {
        if s.stopped == nil { s.stopped = reason }
        let waiters = s.inputWaiters + s.roomWaiters
        s.inputWaiters.removeAll()
        s.roomWaiters.removeAll()
        return waiters
    }

    private func filled(_ bytes: [UInt8]) {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.source.append(bytes)
            s.fetching = false
            s.fills += 1
            defer { s.inputWaiters.removeAll() }
            return s.inputWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
