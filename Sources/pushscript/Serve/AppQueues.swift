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
    /// The line's length in bytes.
    var bytes: Int { line.count + tag.count }
}

/// Runs each app's requests one at a time in the order they were read, as iOS runs a service
/// extension (one notification at a time, in order), while different apps' requests run at
/// once on different lanes.
///
/// The lane that reads a request of an app no lane serves serves it itself, then that app's
/// requests that were read meanwhile, until none is left; a request of an app a lane serves is
/// queued for that lane. The table holds only apps with a request in flight.
final class AppQueues: Sendable {
    private struct Queue {
        var items: [AcceptedRequest] = []
        var head = 0

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

    private let queues = Mutex<[String: Queue]>([:])

    /// Hands `request` over: true when the caller is to serve it now (no lane serves its app),
    /// false when it waits for the lane that does.
    func claim(_ request: AcceptedRequest) -> Bool {
        queues.withLock { queues in
            if queues[request.app] != nil {
                queues[request.app]!.items.append(request)
                return false
            }
            queues[request.app] = Queue()
            return true
        }
    }

    /// The next request of `app` for the lane that serves it, or nil: the app is then no
    /// longer served, and its next request goes to whichever lane reads it.
    func next(of app: String) -> AcceptedRequest? {
        queues.withLock { queues in
            if let item = queues[app]?.take() { return item }
            queues[app] = nil
            return nil
        }
    }
}
