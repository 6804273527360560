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
/// request on, and the stuck thread can no longer change what is delivered.
final class RequestRun: Sendable {
    let identifier: String
    let app: String?
    let locales: [String]
    let limits: ScriptLimits
    let started: Deadline
    let deadline: Deadline
    /// The content before the script ran (after localized alert keys were resolved).
    let original: NotificationContent
    let keys: [String: [UInt8]]
    let media: [String: MediaAnswer]
    /// Where request folders for downloads and attachments go.
    private let attachmentRoot: URL
    /// This request's folder, named on first use.
    private let attachmentFolder = Mutex<URL?>(nil)

    struct State {
        var content: NotificationContent
        var suppressed = false
        var log = RequestLog()
        var phase = RequestPhase.didReceive
        /// Where the request's job is, for the host when it gives the job up.
        var stage = DeliveryPlan.Stage.waiting
        var registeredCategories: [String] = []
        var downloadsAllowed = true
        var downloads: [Int: @Sendable () -> Void] = [:]
        var nextDownload = 0
        var cancelled = false
    }

    private let state: Mutex<State>

    init(
        identifier: String, app: String?, locales: [String], limits: ScriptLimits, content: NotificationContent,
        keys: [String: [UInt8]], media: [String: MediaAnswer], attachmentRoot: URL
    ) {
        self.identifier = identifier
        self.app = app
        // `request.locales` is `{"en"}` when the host is told none.
        self.locales = locales.isEmpty ? ["en"] : locales
        self.limits = limits
        self.started = .now()
        self.deadline = started.advanced(by: limits.time)
        self.original = content
        self.keys = keys
        self.media = media
        self.attachmentRoot = attachmentRoot
        self.state = Mutex(State(content: content))
    }

    /// This request's folder for downloads and attachments (the name is made on first use;
    /// the folder itself by what writes into it).
    var attachmentDirectory: URL {
        attachmentFolder.withLock { folder in
            if let folder { return folder }
            let made = attachmentRoot.appendingPathComponent(UUID().uuidString, isDirectory: true)
            folder = made
            return made
        }
    }

    /// The request's folder, if anything asked for it.
    var usedAttachmentDirectory: URL? { attachmentFolder.withLock { $0 } }

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

    /// Changes the content if `phase` is the current one. Returns nil when it is not.
    func write<T>(_ phase: RequestPhase, _ body: (inout State) -> T) -> T? {
        state.withLock { s in
            guard s.phase == phase else { return nil }
            return body(&s)
        }
    }

    // MARK: Log

    /// Adds an entry to the request's log.
    func log(_ level: LogEntry.Level, _ message: String, host: Bool = false) {
        state.withLock { $0.log.add(LogEntry(level: level, message: message, source: host ? "host" : nil)) }
    }

    // MARK: Downloads

    /// Registers a download's cancel action; nil when downloads may not start (the deadline
    /// came, or `bestAttempt` is running).
    func beginDownload(cancel: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { s in
            guard s.downloadsAllowed, !s.cancelled else { return nil }
            s.nextDownload += 1
            s.downloads[s.nextDownload] = cancel
            return s.nextDownload
        }
    }

    func endDownload(_ id: Int) { _ = state.withLock { $0.downloads.removeValue(forKey: id) } }

    /// Cancels every download in flight and refuses new ones (the deadline came).
    func cancelDownloads() {
        let cancels = state.withLock { s -> [@Sendable () -> Void] in
            s.cancelled = true
            s.downloadsAllowed = false
            defer { s.downloads.removeAll() }
            return Array(s.downloads.values)
        }
        cancels.forEach { $0() }
    }

    /// Whether the deadline's cancel has come.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    // MARK: Delivery

    /// Ends all writing and returns what is delivered.
    func seal() -> State {
        state.withLock { s in
            s.phase = .sealed
            return s
        }
    }
}

/// Identifiers for requests that come without an `apns-id`: random UUID strings from the
/// system's generator (no file is opened per request).
enum RequestIdentifier {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        // Version 4, variant 1 (RFC 9562).
        bytes.0 = (bytes.0 & ~0xF000) | 0x4000
        bytes.1 = (bytes.1 & ~(0xC << 60)) | (0x8 << 60)
        let hex = String(bytes.0, radix: 16, uppercase: true).leftPadded(16) + String(bytes.1, radix: 16, uppercase: true).leftPadded(16)
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
