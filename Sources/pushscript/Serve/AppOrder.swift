import Synchronization

/// Runs each app's work one at a time in the order it was handed in, as iOS runs a service
/// extension (one notification at a time, in order), while different apps' work runs in
/// parallel.
///
/// An app with work in flight has a queue and one task that runs its items in turn; work for
/// it is added to that queue, and the task ends when the queue is empty, so the table holds
/// only apps with work in flight. One app's requests in a row cost one task and run where it
/// runs, with no hand-off between them.
final class AppOrder: Sendable {
    typealias Work = @Sendable () async -> Void

    /// The items waiting behind the one an app's task runs, first at `head`.
    private struct Queue {
        var items: [Work] = []
        var head = 0

        mutating func take() -> Work? {
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

    private let queues = Mutex<[String: Queue]>([:])
    /// The executor the apps' tasks prefer (nil: the global one).
    private let executor: (any TaskExecutor)?

    /// An order whose work runs in tasks that prefer `executor`.
    init(executor: (any TaskExecutor)? = nil) {
        self.executor = executor
    }

    /// Runs `work` for `app` once the app's earlier work has finished.
    func enqueue(app: String, _ work: @escaping Work) {
        let starts = queues.withLock { queues -> Bool in
            if queues[app] != nil {
                queues[app]!.items.append(work)
                return false
            }
            queues[app] = Queue()
            return true
        }
        guard starts else { return }
        Task(executorPreference: executor) {
            var next: Work? = work
            while let item = next {
                await item()
                next = self.queues.withLock { queues -> Work? in
                    if let item = queues[app]?.take() { return item }
                    queues[app] = nil
                    return nil
                }
            }
        }
    }
}
