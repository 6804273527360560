/// The host's waits in flight for a request (downloads, posts, hooks), cut short when its
/// phase's deadline comes.
extension RequestRun {
    /// Registers a download's cancel action; nil when downloads may not start (the deadline
    /// came, or `bestAttempt` is running).
    func beginDownload(cancel: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { s in
            guard s.downloadsAllowed, !s.cancelled else { return nil }
            return Self.add(cancel, to: &s)
        }
    }

    func endDownload(_ id: Int) { endWait(id) }

    /// Registers the cancel action of a wait of a host call (a post, a hook); nil when the
    /// phase's deadline has come already.
    func beginWait(cancel: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { s in
            guard !s.cancelled else { return nil }
            return Self.add(cancel, to: &s)
        }
    }

    func endWait(_ id: Int) { _ = state.withLock { $0.waits.removeValue(forKey: id) } }

    private static func add(_ cancel: @escaping @Sendable () -> Void, to s: inout State) -> Int {
        s.nextWait += 1
        s.waits[s.nextWait] = cancel
        return s.nextWait
    }

    /// Cancels every download and wait in flight and refuses new ones (the deadline came).
    func cancelDownloads() {
        let cancels = state.withLock { s -> [@Sendable () -> Void] in
            s.cancelled = true
            s.downloadsAllowed = false
            defer { s.waits.removeAll() }
            return Array(s.waits.values)
        }
        cancels.forEach { $0() }
    }

    /// Whether the deadline's cancel has come.
    var isCancelled: Bool { state.withLock { $0.cancelled } }
}
