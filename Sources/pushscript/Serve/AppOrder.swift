import Synchronization

/// Runs each app's work one at a time in the order it was handed in, as iOS runs a service
/// extension (one notification at a time, in order), while different apps' work runs in
/// parallel.
///
/// Each app has a tail: the task of its last work item. A new item waits for the tail before it
/// starts and becomes the new tail; an item that finishes while still the tail removes it, so
/// the table holds only apps with work in flight.
final class AppOrder: Sendable {
    private struct Tail {
        let ticket: Int
        let task: Task<Void, Never>
    }

    private struct State {
        var tails: [String: Tail] = [:]
        var nextTicket = 0
    }

    private let state = Mutex(State())
    /// The executor the work's tasks prefer (nil: the global one).
    private let executor: (any TaskExecutor)?

    /// An order whose work runs in tasks that prefer `executor`.
    init(executor: (any TaskExecutor)? = nil) {
        self.executor = executor
    }

    /// Starts `work` for `app` once the app's earlier work has finished; returns its task.
    @discardableResult
    func enqueue(app: String, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { s in
            let previous = s.tails[app]?.task
            let ticket = s.nextTicket
            s.nextTicket += 1
            let task = Task(executorPreference: executor) {
                await previous?.value
                await work()
                self.finished(app: app, ticket: ticket)
            }
            s.tails[app] = Tail(ticket: ticket, task: task)
            return task
        }
    }

    /// How many apps have work in flight or waiting.
    var appsInFlight: Int { state.withLock { $0.tails.count } }

    private func finished(app: String, ticket: Int) {
        state.withLock { s in
            if s.tails[app]?.ticket == ticket { s.tails[app] = nil }
        }
    }
}
