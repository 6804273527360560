import Foundation
import ScriptHost

extension InstalledScripts {
    /// How many deliveries' counts wait in memory before they are written.
    static let batchSize = 1000
    /// How long counts wait in memory at most before a delivery writes them.
    static let batchTime = Duration.seconds(1)

    /// Counts a delivery for the version that answered it (`result.script`) and, when that
    /// version is the candidate on probation, judges it: rolled back or promoted at once, so
    /// that the next request already gets what follows.
    public func record(_ result: DeliveryResult, app: String?) {
        guard recording, let app, !app.isEmpty else { return }
        let version = result.script?.version
        // In place: the view is not copied.
        let next = views.withLock { $0[app, default: AppView()].count(result, version: version) }
        switch next {
        case .none: break
        case .judge: judge(app: app, version: version ?? 0, reason: result.reason)
        // Written off the request's path: the answer does not wait for the file.
        case .write: Task.detached(priority: .utility) { self.flush(app) }
        }
    }

    /// Writes the counts that wait in memory.
    public func flush() {
        // Taken first: a write in flight ends before this looks at what waits.
        writing.withLock { _ in
            let apps = views.withLock { views in views.filter { $0.value.pendingDeliveries > 0 }.map(\.key) }
            for app in apps { flushNow(app) }
        }
    }

    /// Writes one app's waiting counts. Writers take turns, so a ``flush()`` returns only once
    /// what a background write took is written too.
    func flush(_ app: String) {
        writing.withLock { _ in flushNow(app) }
    }

    private func flushNow(_ app: String) {
        let layout = layout(app)
        let (pending, baselineSHA256) = takePending(app)
        guard !pending.isEmpty else { return }
        do {
            try layout.state.withLock { () throws in
                var counts = try readCounts(layout)
                merge(pending, baselineSHA256: baselineSHA256, into: &counts)
                try layout.counts.write(counts.encoded())
            }
        } catch {
            report(.countsNotWritten(app: app, message: "\(error)"))
        }
    }

    /// Counts a candidate's delivery and judges it, under the app's state lock, against the
    /// state as its file holds it now.
    private func judge(app: String, version: Int, reason: DeliveryResult.Reason?) {
        writing.withLock { _ in judgeNow(app: app, version: version, reason: reason) }
    }

    private func judgeNow(app: String, version: Int, reason: DeliveryResult.Reason?) {
        let layout = layout(app)
        let (pending, baselineSHA256) = takePending(app)
        var delivery = DeliveryCounts()
        delivery.add(reason)
        var event: Event?
        var written: (InstalledState, Data)?
        do {
            try layout.state.withLock { () throws in
                var counts = try readCounts(layout)
                merge(pending, baselineSHA256: baselineSHA256, into: &counts)
                counts[version].add(delivery)
                let state = try layout.state.readBytes().map { try InstalledState.decode($0.0) } ?? InstalledState(app: app)
                var next = state
                if let candidate = state.candidate, candidate.version == version, candidate.taken {
                    let previousVersion = state.lastGood?.version
                    switch ProbationRule.verdict(candidate: counts[version], probation: candidate.probation, previous: counts[previousVersion]) {
                    case .watching:
                        break
                    case .promote:
                        next.candidate = nil
                        next.promote(candidate)
                        event = .promoted(app: app, version: version)
                    case .rollBack:
                        let record = ProbationRecord(counts: counts[version], probation: candidate.probation, previousVersion: previousVersion, previous: counts[previousVersion])
                        next.candidate = nil
                        next.rolledBack.append(RolledBackVersion(version: candidate, at: ManifestClock.now(), record: record))
                        event = .rolledBack(app: app, version: version, reason: record.summary)
                    }
                }
                try layout.counts.write(counts.encoded())
                if next != state {
                    next.generation = state.generation + 1
                    let data = next.encoded()
                    try StateWriting.replace(layout.state.url, with: Array(data), files: files)
                    written = (next, data)
                }
            }
        } catch {
            report(.countsNotWritten(app: app, message: "\(error)"))
            return
        }
        if let (state, data) = written {
            // This process serves what follows from the next request on, without waiting for
            // the file's stamp.
            let stamp = layout.state.signature()
            views.withLock { views in
                views[app, default: AppView()].apply(stamp: stamp, settled: false, bytes: data, state: state)
            }
        }
        if let event { report(event) }
    }

    private func takePending(_ app: String) -> ([String: DeliveryCounts], String?) {
        views.withLock { views in
            guard var view = views[app] else { return ([:], nil) }
            let pending = view.pending
            view.pending = [:]
            view.pendingDeliveries = 0
            view.writeScheduled = false
            view.lastFlush = ContinuousClock.now
            views[app] = view
            return (pending, view.baselineSHA256)
        }
    }

    private func merge(_ pending: [String: DeliveryCounts], baselineSHA256: String?, into counts: inout AppCounts) {
        for (key, more) in pending { counts.versions[key, default: DeliveryCounts()].add(more) }
        if let baselineSHA256 { counts.baselineSHA256 = baselineSHA256 }
    }

    private func readCounts(_ layout: StateLayout) throws -> AppCounts {
        AppCounts.decode(try layout.counts.readBytes()?.0)
    }
}

extension InstalledScripts.AppView {
    /// What follows a delivery counted in memory.
    enum AfterCount {
        case none
        /// The version is the candidate on probation: it is counted and judged under the lock.
        case judge
        /// The counts are due to be written.
        case write
    }

    /// Counts a delivery of `version` in memory, unless it is the candidate's.
    mutating func count(_ result: DeliveryResult, version: Int?) -> AfterCount {
        if let version, let candidate = state?.candidate, candidate.version == version, candidate.taken { return .judge }
        pending[AppCounts.key(version), default: DeliveryCounts()].add(result.reason)
        pendingDeliveries += 1
        if version == nil, let sha = result.script?.sha256, sha != baselineSHA256 { baselineSHA256 = sha }
        guard !writeScheduled else { return .none }
        let due = pendingDeliveries >= InstalledScripts.batchSize || ContinuousClock.now - lastFlush >= InstalledScripts.batchTime
        if due { writeScheduled = true }
        return due ? .write : .none
    }
}
