import Dispatch
import Foundation
import Synchronization

/// Threads with big stacks that run Lua jobs.
///
/// Lua recursion through C (a `gsub` callback calling `gsub`, metamethods calling
/// metamethods) nests deep C frames; on the small stacks of a cooperative pool that is a crash.
/// These threads have 8 MiB stacks. A job may block (a download), so the pool starts another
/// thread whenever every thread is busy; a thread stuck for good in a job the watchdog gave up
/// on costs only itself.
public final class LuaThreadPool: Sendable {
    /// The pool every executor uses unless told otherwise.
    public static let shared = LuaThreadPool()

    /// The stack size of each thread, in bytes.
    public let stackSize: Int

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var idle = 0
        var threads = 0
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    /// A pool whose threads have `stackSize` bytes of stack (at least 1 MiB).
    public init(stackSize: Int = 8 * 1024 * 1024) {
        self.stackSize = max(stackSize, 1024 * 1024)
    }

    /// The number of threads started so far.
    public var threadCount: Int { state.withLock { $0.threads } }

    /// Runs `job` on one of the pool's threads.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        let startThread = state.withLock { s -> Bool in
            s.jobs.append(job)
            let pending = s.jobs.count - s.head
            if pending > s.idle {
                s.threads += 1
                return true
            }
            return false
        }
        available.signal()
        if startThread { start() }
    }

    private func start() {
        let thread = Thread { [self] in work() }
        thread.stackSize = stackSize
        thread.name = "lua"
        thread.start()
    }

    private func work() {
        while true {
            state.withLock { $0.idle += 1 }
            available.wait()
            let job = state.withLock { s -> @Sendable () -> Void in
                s.idle -= 1
                let job = s.jobs[s.head]
                s.head += 1
                if s.head > 64, s.head * 2 > s.jobs.count {
                    s.jobs.removeFirst(s.head)
                    s.head = 0
                }
                return job
            }
            job()
        }
    }
}
