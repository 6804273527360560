import Synchronization

/// A line `serve` accepted, routed by its app and read whole when its turn comes: its place
/// in the input and what it costs the read-ahead window.
struct AcceptedRequest: Sendable {
    /// The line's number among the lines read (blank ones not counted), from 0.
    let index: Int
    /// The app whose order it keeps (`""` when it names none).
    let app: String
    /// The line, without its line end (and without its tag).
    let line: [UInt8]
    /// What a worker process's answer begins with: the parent's number for the request and a
    /// space (empty outside a worker).
    var tag: [UInt8] = []
    /// When the read that brought the line returned (or later): a script file looked at since
    /// is not looked at again for it.
    var arrivedAt = ContinuousClock.now
    /// The line's length in bytes.
    var bytes: Int { line.count + tag.count }
}

/// Runs each app's requests one at a time in the order they were read, as iOS runs a service
/// extension (one notification at a time, in order), while different apps' requests run at
/// once on different lanes.
///
/// The lane that reads a request of an app no lane serves serves it itself, then that app's
/// requests that were read meanwhile, until none is left; a request of an app a lane serves is
/// queued for that lane. The table holds the apps with a request in flight and, up to
/// ``rememberedApps``, the lane each other app was served on last.
///
/// An app keeps to the lane that served it last while that lane is busy with a request that
/// began just now: the reading lane leaves it for that lane (its Lua state is warm in that
/// core's cache) and reads on. Such a request is taken back by a lane that reads when it has
/// left two in a row, would wait, or finds it waiting for ``affinityWindow``. So it waits for
/// another app's request only while every lane is busy, and then for one that began under
/// ``affinityWindow`` before it was read (which may run long: that case is not bounded).
final class AppQueues: Sendable {
    /// How recently the last lane's request must have begun for an app to wait for that lane.
    static let affinityWindow: Duration = .milliseconds(1)
    /// The most apps whose last lane is remembered.
    static let rememberedApps = 16_384

    /// What became of a request handed over.
    enum Claim: Equatable {
        /// The caller serves it now.
        case serve
        /// It waits for the lane that serves its app.
        case queued
        /// It waits for the lane that served its app last, which is busy (see ``steal(lane:overdueOnly:)``).
        case left
    }

    private struct Queue {
        var items: [AcceptedRequest] = []
        var head = 0
        /// The lane it waits for while no lane serves it.
        var leftFor: Int?

        mutating func take() -> AcceptedRequest? {
            guard head < items.count else { return nil }
            defer {
                head += 1
                if head == items.count {
                    items.removeAll(keepingCapacity: true)
                    head = 0
                }
            }
            return items[head]
        }
    }

    /// What is known of one app: its queue while it has a request in flight, and the lane
    /// that served it last. One entry, so that a request's app is looked up once at each step.
    private struct App {
        var queue: Queue?
        var lastLane: Int?
    }

    private struct State {
        /// The apps with a request in flight, and those whose last lane is remembered.
        var apps: [String: App] = [:]
        /// When each lane's request in service began; nil while the lane serves none.
        var busySince: [ContinuousClock.Instant?]
        /// Apps left for a lane, oldest first, and when.
        var left: [(app: String, at: ContinuousClock.Instant)] = []
    }

    private let state: Mutex<State>
    /// ``affinityWindow`` unless a test gives another.
    private let window: Duration
    /// How many apps are left for a lane (read without the lock: most reads find none).
    private let leftCount = Atomic<Int>(0)

    /// Queues for `lanes` lanes, numbered from 0.
    init(lanes: Int, affinityWindow: Duration = AppQueues.affinityWindow) {
        window = affinityWindow
        state = Mutex(State(busySince: Array(repeating: nil, count: max(1, lanes))))
    }

    /// Hands over `request`, read by `lane`: to serve now, queued for the lane that serves its
    /// app, or left for the lane that served it last.
    func claim(_ request: AcceptedRequest, lane: Int) -> Claim {
        state.withLock { s in
            guard let at = s.apps.index(forKey: request.app) else {
                makeRoom(&s)
                s.apps[request.app] = App(queue: Queue(), lastLane: lane)
                s.busySince[lane] = .now
                return .serve
            }
            if s.apps.values[at].queue != nil {
                s.apps.values[at].queue!.items.append(request)
                return .queued
            }
            if let last = s.apps.values[at].lastLane, last != lane, let since = s.busySince[last],
                ContinuousClock.now - since < window
            {
                s.apps.values[at].queue = Queue(items: [request], leftFor: last)
                s.left.append((request.app, .now))
                leftCount.store(s.left.count, ordering: .relaxed)
                return .left
            }
            s.apps.values[at].queue = Queue()
            serving(at, on: lane, &s)
            return .serve
        }
    }

    /// The next request for `lane`, which has served one of `app`'s: the app's next, else
    /// the first of an app left for this lane, else nil (the lane then serves no app, and an
    /// app's next request goes to whichever lane reads it).
    func next(of app: String, lane: Int) -> AcceptedRequest? {
        state.withLock { s in
            if let at = s.apps.index(forKey: app) {
                if let item = s.apps.values[at].queue?.take() {
                    s.busySince[lane] = .now
                    return item
                }
                s.apps.values[at].queue = nil
            }
            if let index = s.left.firstIndex(where: { s.apps[$0.app]?.queue?.leftFor == lane }) {
                return takeLeft(at: index, lane: lane, &s)
            }
            s.busySince[lane] = nil
            return nil
        }
    }

    /// Whether an app is left for a busy lane (read without the lock, as ``steal(lane:overdueOnly:)`` does).
    var hasLeft: Bool { leftCount.load(ordering: .relaxed) > 0 }

    /// The first request of the app left longest, for `lane` to serve now: any such app, or
    /// only one left for longer than ``affinityWindow`` when `overdueOnly`; nil when there is none.
    func steal(lane: Int, overdueOnly: Bool = false) -> AcceptedRequest? {
        guard leftCount.load(ordering: .relaxed) > 0 else { return nil }
        return state.withLock { s in
            guard let oldest = s.left.first, !overdueOnly || ContinuousClock.now - oldest.at >= window else { return nil }
            return takeLeft(at: 0, lane: lane, &s)
        }
    }

    private func takeLeft(at index: Int, lane: Int, _ s: inout State) -> AcceptedRequest? {
        let app = s.left.remove(at: index).app
        leftCount.store(s.left.count, ordering: .relaxed)
        guard let at = s.apps.index(forKey: app), s.apps.values[at].queue != nil else { return nil }
        s.apps.values[at].queue!.leftFor = nil
        serving(at, on: lane, &s)
        return s.apps.values[at].queue!.take()
    }

    private func serving(_ at: Dictionary<String, App>.Index, on lane: Int, _ s: inout State) {
        s.apps.values[at].lastLane = lane
        s.busySince[lane] = .now
    }

    /// Makes room for a new app's entry: past ``rememberedApps`` entries, the lanes of the apps
    /// with no request in flight are forgotten.
    private func makeRoom(_ s: inout State) {
        guard s.apps.count >= Self.rememberedApps else { return }
        s.apps = s.apps.filter { $0.value.queue != nil }
    }
}
