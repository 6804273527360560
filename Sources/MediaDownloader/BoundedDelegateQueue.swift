import Dispatch
import Foundation

/// The URLSession delegate queue: runs callbacks in order on a thread of its own, with room for
/// only a few waiting callbacks.
///
/// FoundationNetworking (on Linux) hands every chunk that libcurl reads to the delegate queue
/// with `addOperation` and goes on reading without waiting, so when the delegate falls behind
/// — a busy CPU, loopback speeds — chunks pile up in memory: measured, a 50 MB download raised
/// the peak by up to 24 MB. Here `addOperation` makes its caller (the session's transfer
/// queue) wait while ``capacity`` callbacks are already waiting, which stops libcurl reading
/// until the delegate catches up: backpressure, as Apple's URLSession has.
///
/// The callbacks run on a dedicated thread, not on Dispatch's shared pool: on a machine with
/// few cores that pool can be all taken by threads waiting for the very transfer queue that is
/// waiting here, and the callbacks would never get a thread. The delegate itself never waits
/// for the session. The wait in `addOperation` is bounded by ``maximumWait`` all the same.
///
/// Only the block form of `addOperation`, the one URLSession uses, is handled here; an
/// `Operation` added directly runs as `OperationQueue` runs it.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    /// How many callbacks may wait before `addOperation` blocks.
    let capacity: Int
    /// The longest `addOperation` blocks.
    let maximumWait: TimeInterval

    private let condition = NSCondition()
    private var pending: [@Sendable () -> Void] = []
    private var finishing = false

    init(capacity: Int = 8, maximumWait: TimeInterval = 0.1) {
        self.capacity = capacity
        self.maximumWait = maximumWait
        super.init()
        name = "MediaDownloader.URLSessionTransport"
        maxConcurrentOperationCount = 1
        let thread = Thread { [self] in runLoop() }
        thread.name = "MediaDownloader.URLSessionTransport.delegate"
        thread.start()
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: maximumWait)
        while pending.count >= capacity, condition.wait(until: deadline) {}
        pending.append(block)
        condition.broadcast()
        condition.unlock()
    }

    /// Lets the thread end once every waiting callback has run.
    func finish() {
        condition.lock()
        finishing = true
        condition.broadcast()
        condition.unlock()
    }

    private func runLoop() {
        while true {
            condition.lock()
            while pending.isEmpty, !finishing { condition.wait() }
            if pending.isEmpty {
                condition.unlock()
                return
            }
            let block = pending.removeFirst()
            condition.broadcast()
            condition.unlock()
            block()
        }
    }
}
