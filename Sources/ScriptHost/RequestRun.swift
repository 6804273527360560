import Foundation
import LuaSandbox
import NotificationModel
import Synchronization

/// One request while it runs: the content the script changes, its log, its downloads.
///
/// The script's thread writes here through the content bridge while the delivering side waits;
/// every accepted write lands at once, so a script stopped half-way still leaves its best
/// attempt. Each phase (`didReceive`, `bestAttempt`) writes with a token; when the host gives
/// up on a phase (its state is stuck) it revokes that token, and the stuck thread can no
/// longer change what is delivered.
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
    /// Answers for posts, and where posts may go.
    let http: [String: PostAnswer]
    let postPolicy: PostPolicy
    /// Where request folders for downloads and attachments go.
    private let attachmentRoot: URL
    /// This request's folder, named on first use.
    private let attachmentFolder = Mutex<URL?>(nil)

    struct State {
        var content: NotificationContent
        var suppressed = false
        var log = RequestLog()
        var activeToken = 0
        var registeredCategories: [String] = []
        var posts: [PostRecord] = []
        var downloadsAllowed = true
        var downloads: [Int: @Sendable () -> Void] = [:]
        var nextDownload = 0
        var cancelled = false
    }

    private let state: Mutex<State>

    init(
        identifier: String, app: String?, locales: [String], limits: ScriptLimits, content: NotificationContent,
        keys: [String: [UInt8]], media: [String: MediaAnswer], attachmentRoot: URL,
        http: [String: PostAnswer] = [:], allowPostHosts: Set<String> = []
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
        self.http = http
        self.postPolicy = PostPolicy(allowedHosts: allowPostHosts)
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

    /// Lets the phase with `token` write; every other token's writes are refused from now on.
    func activate(_ token: Int, downloads: Bool) {
        state.withLock {
            $0.activeToken = token
            $0.downloadsAllowed = downloads
        }
    }

    /// Whether `token` may write.
    func isActive(_ token: Int) -> Bool { state.withLock { $0.activeToken == token } }

    // MARK: Content

    /// Reads the content.
    func read<T>(_ body: (NotificationContent) -> T) -> T {
        state.withLock { body($0.content) }
    }

    /// Changes the content if `token` is the active phase. Returns nil when it is not.
    func write<T>(_ token: Int, _ body: (inout State) -> T) -> T? {
        state.withLock { s in
            guard s.activeToken == token else { return nil }
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
            s.activeToken = -1
            return s
        }
    }
}
