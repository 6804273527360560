import LuaSandbox

/// What ended a request's time, and the system's time running out from outside.
extension RequestRun {
    /// What ends the request's time when nothing else did first: the system's deadline when
    /// it comes no later than the host's, else the host's.
    private var deadlineCause: TimeCause {
        if let expiry, expiry <= limits.time { return .expiry(expiry) }
        return .deadline(limits.time)
    }

    /// What ended the request's time: the first of an expiry and a deadline.
    var timeCause: TimeCause { state.withLock { $0.cause } ?? deadlineCause }

    /// What ends `afterDelivery`'s time: the system's time running out, else the deadline.
    var afterDeliveryCause: TimeCause { isExpired ? .expired : deadlineCause }

    /// Whether the system's time ran out (``expire()`` was called).
    var isExpired: Bool { state.withLock { $0.expired } }

    /// The system's time ran out: records it (unless a deadline ended the time first), tells
    /// the watchers, and ends the job's current phase when it may be ended so. Any thread, any
    /// number of times.
    func expire() {
        let watchers = state.withLock { s -> [@Sendable () -> Void] in
            guard !s.expired else { return [] }
            s.expired = true
            if s.cause == nil, s.phase == .didReceive { s.cause = .expired }
            defer { s.expiryWatchers.removeAll() }
            return Array(s.expiryWatchers.values)
        }
        watchers.forEach { $0() }
        control.expire()
    }

    /// Calls `watcher` when the system's time runs out (at once when it has); the id to stop
    /// watching with, nil when it was called at once.
    func watchExpiry(_ watcher: @escaping @Sendable () -> Void) -> Int? {
        let id = state.withLock { s -> Int? in
            guard !s.expired else { return nil }
            s.nextWait += 1
            s.expiryWatchers[s.nextWait] = watcher
            return s.nextWait
        }
        if id == nil { watcher() }
        return id
    }

    func unwatchExpiry(_ id: Int?) {
        guard let id else { return }
        _ = state.withLock { $0.expiryWatchers.removeValue(forKey: id) }
    }

    /// The deadline of `didReceive`'s phase came (by its timer or an expiry): records the
    /// deadline as what ended the time unless something did first, and cancels the waits.
    func deadlineCame() {
        let cause = deadlineCause
        state.withLock { s in if s.cause == nil { s.cause = cause } }
        cancelDownloads()
    }
}
