import Foundation
import LuaSandbox
import NotificationModel
import Synchronization

/// One request while it runs: the content the script changes, its log, its downloads.
///
/// The script's thread writes here through the content bridge while the delivering side waits;
/// every accepted write lands at once, so a script stopped half-way still leaves its best
/// attempt. Each write names the phase it comes from (``RequestPhase``); only the current
/// phase's writes land. When the host gives up on a phase (its state is stuck) it moves the
/// request on, and the stuck thread can no longer change what is delivered. After delivery,
/// `afterDelivery` may add posts and log entries, never content.
final class RequestRun: Sendable {
    let identifier: String
    let app: String?
    let locales: [String]
    let limits: ScriptLimits
    let started: Deadline
    /// When `didReceive` must have returned: the host's deadline or the system's, whichever
    /// comes first.
    let deadline: Deadline
    /// The system's deadline from the request's start, if it came with one.
    let expiry: Duration?
    /// The content before the script ran (after localized alert keys were resolved).
    let original: NotificationContent
    let keys: [String: [UInt8]]
    /// What answers the request's downloads and posts ahead of the host's network, if given.
    let answers: RequestAnswers?
    /// Hosts that may be reached over plain `http`: the host's and the request's.
    let allowHTTPHosts: Set<String>
    /// Where posts may go.
    let postPolicy: PostPolicy
    /// The media directory `content:attach{path = …}` reads: the request's, else the host's.
    let mediaDirectory: URL?
    /// The payload's `userInfo` in the bridge's format, with the dictionary it encodes
    /// (``NotificationRequest/userInfoEncoding``), when the request came with it.
    let userInfoEncoding: UserInfoEncoding?
    /// Ends the current phase of the request's job from outside (``expire()``).
    let control = JobControl()
    /// This request's folder, named on first use. (The folder the request folders go in is the
    /// host's, given by what asks: a request that kept it would retain it, from every thread.)
    private let attachmentFolder = Mutex<URL?>(nil)

    struct State {
        var content: NotificationContent
        var suppressed = false
        var log = RequestLog()
        var phase = RequestPhase.didReceive
        /// Where the request's job is, for the host when it gives the job up.
        var stage = DeliveryPlan.Stage.waiting
        /// What the modules recorded for the result (posts, categories).
        var parts = ResultParts()
        /// The bytes the posts, categories and attachments hold, against ``ScriptLimits/recordBytes``.
        var recordedBytes = 0
        /// The script that answers the request, once it is known.
        var script: ScriptIdentity?
        var downloadsAllowed = true
        /// What cuts short the host's waits in flight (downloads, posts, hooks) by id.
        var waits: [Int: @Sendable () -> Void] = [:]
        var nextWait = 0
        var cancelled = false
        /// What ended the request's time first, once something did.
        var cause: TimeCause?
        /// Whether the system's time ran out (``expire()``).
        var expired = false
        /// Told when the system's time runs out (a lookup waiting for its script).
        var expiryWatchers: [Int: @Sendable () -> Void] = [:]
        /// When the content was handed over.
        var deliveredAt: Deadline?
    }

    /// Everything above, behind one lock.
    let state: Mutex<State>

    init(
        identifier: String, app: String?, locales: [String], limits: ScriptLimits, content: NotificationContent,
        keys: [String: [UInt8]], answers: RequestAnswers? = nil, allowHTTPHosts: Set<String> = [],
        allowPostHosts: Set<String> = [], mediaDirectory: URL? = nil,
        expiry: Duration? = nil, userInfoEncoding: UserInfoEncoding? = nil
    ) {
        self.userInfoEncoding = userInfoEncoding
        self.identifier = identifier
        self.app = app
        // `request.locales` is `{"en"}` when the host is told none.
        self.locales = locales.isEmpty ? ["en"] : locales
        self.limits = limits
        let started = Deadline.now()
        self.started = started
        self.expiry = expiry
        let hostDeadline = started.advanced(by: limits.time)
        self.deadline = expiry.map { min(started.advanced(by: max($0, .zero)), hostDeadline) } ?? hostDeadline
        self.original = content
        self.keys = keys
        self.answers = answers
        self.allowHTTPHosts = allowHTTPHosts
        self.postPolicy = PostPolicy(allowedHosts: allowPostHosts)
        self.mediaDirectory = mediaDirectory
        self.state = Mutex(State(content: content))
    }

    /// This request's folder for downloads and attachments, in `root`, the host's folder of
    /// request folders (the name is made on first use; the folder itself by what writes into it).
    func attachmentDirectory(under root: URL) -> URL {
        attachmentFolder.withLock { folder in
            if let folder { return folder }
            let made = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
            folder = made
            return made
        }
    }

    /// The request's folder, if anything asked for it.
    var usedAttachmentDirectory: URL? { attachmentFolder.withLock { $0 } }

    /// Records which script answers the request (for the result's `script`).
    func answered(by script: Script) {
        let identity = script.identity
        state.withLock { $0.script = identity }
    }

    // MARK: Phases

    /// Moves the request from `phase` to `next` (which may not download); false, with no
    /// change, when it is not in `phase` any more (the host moved it on).
    func advance(from phase: RequestPhase, to next: RequestPhase, stage: DeliveryPlan.Stage? = nil) -> Bool {
        state.withLock { s in
            guard s.phase == phase else { return false }
            s.phase = next
            s.downloadsAllowed = false
            if let stage { s.stage = stage }
            return true
        }
    }

    /// Records where the job is, if `phase` is still the current one.
    func record(_ stage: DeliveryPlan.Stage, in phase: RequestPhase) {
        state.withLock { s in if s.phase == phase { s.stage = stage } }
    }

    /// Where the job was last recorded; a job still in `didReceive` is moved on to
    /// `bestAttempt`, so that neither its writes land any more nor can it move on by itself.
    func takeOverFromStuckJob() -> DeliveryPlan.Stage {
        state.withLock { s in
            if s.phase == .didReceive {
                s.phase = .bestAttempt
                s.downloadsAllowed = false
            }
            return s.stage
        }
    }

    /// Whether writes from `phase` land.
    func isActive(_ phase: RequestPhase) -> Bool { state.withLock { $0.phase == phase } }

    // MARK: Content

    /// Reads the content.
    func read<T>(_ body: (NotificationContent) -> T) -> T {
        state.withLock { body($0.content) }
    }

    /// Changes the content if `phase` is the current one and not after delivery (the content
    /// is handed over then). Returns nil when it is not.
    func write<T>(_ phase: RequestPhase, _ body: (inout State) -> T) -> T? {
        state.withLock { s in
            guard s.phase == phase, phase != .afterDelivery else { return nil }
            return body(&s)
        }
    }

    // MARK: Log

    /// Adds an entry to the request's log.
    func log(_ level: LogEntry.Level, _ message: String, host: Bool = false) {
        state.withLock { $0.log.add(LogEntry(level: level, message: message, source: host ? "host" : nil)) }
    }

    // MARK: Delivery

    /// Ends all writing and returns what is delivered; the time of delivery is taken now.
    func seal() -> State {
        state.withLock { s in
            s.phase = .sealed
            if s.deliveredAt == nil { s.deliveredAt = .now() }
            return s
        }
    }

    /// Opens the request for `afterDelivery`: posts and log entries land again, the content
    /// stays as delivered, no download may start, and its waits answer a cancel of their own.
    /// False when the system's time ran out already.
    func beginAfterDelivery() -> Bool {
        state.withLock { s in
            guard s.phase == .sealed, !s.expired else { return false }
            s.phase = .afterDelivery
            s.cancelled = false
            s.downloadsAllowed = false
            return true
        }
    }

    /// Ends `afterDelivery`'s writing (or that the host gave up on it) and returns the state.
    func sealAfterDelivery() -> State {
        state.withLock { s in
            s.phase = .sealed
            return s
        }
    }
}

/// Identifiers for requests that come without an `apns-id`: UUID strings (version 4 form),
/// a process-wide random key mixed with a counter, so no request pays for a system call.
enum RequestIdentifier {
    private static let key: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    private static let counter = Atomic<UInt64>(0)

    static func make() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        var high = mix(n ^ key.0)
        var low = mix(n &+ key.1)
        // Version 4, variant 1 (RFC 9562).
        high = (high & ~0xF000) | 0x4000
        low = (low & ~(0xC << 60)) | (0x8 << 60)
        return String(unsafeUninitializedCapacity: 36) { bytes in
            var position = 0
            for word in [high, low] {
                for i in 0..<16 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        bytes[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    let digit = UInt8((word >> UInt64(60 - 4 * i)) & 0xF)
                    bytes[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10
                    position += 1
                }
            }
            return position
        }
    }

    /// SplitMix64's finalizer: every input bit reaches every output bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
