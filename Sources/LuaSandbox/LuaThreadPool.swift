import Dispatch
import Foundation
import Synchronization

/// Threads with big stacks that run Lua jobs.
///
/// Lua recursion through C (a `gsub` callback calling `gsub`, metamethods calling
/// metamethods) nests deep C frames; on the small stacks of a cooperative pool that is a crash.
/// These threads have 8 MiB stacks. A job may block (a download), so the pool starts another
/// thread whenever every thread is busy, up to ``maxThreads``; past that, jobs wait for a
/// thread. A job the executor gave up on (stuck in a call nothing interrupts) holds its thread
/// until it returns: ``isHeldByStuckJobs`` tells when every thread the pool may have is held so.
package final class LuaThreadPool: Sendable {
    /// The pool every executor uses unless told otherwise.
    package static let shared = LuaThreadPool()

    /// The stack size of each thread, in bytes.
    package let stackSize: Int
    /// The most threads the pool starts.
    package let maxThreads: Int

    private struct State {
        /// Jobs waiting for a thread, from `head` on; `lua` tells a Lua job from a task's.
        var jobs: [(run: @Sendable () -> Void, lua: Bool)] = []
        var head = 0
        var idle = 0
        var threads = 0
    }

    private let state = Mutex(State())
    /// How many abandoned jobs hold a thread: read by every request, so it is kept apart from
    /// the lock (a lock taken is a write, which moves it between the cores' caches).
    private let stuck = Atomic<Int>(0)
    private let available = DispatchSemaphore(value: 0)

    /// A pool of at most `maxThreads` threads (at least 1) whose threads have `stackSize` bytes
    /// of stack (at least 1 MiB).
    package init(stackSize: Int = 8 * 1024 * 1024, maxThreads: Int = 64) {
        self.stackSize = max(stackSize, 1024 * 1024)
        self.maxThreads = max(maxThreads, 1)
    }

    /// The number of threads started so far.
    package var threadCount: Int { state.withLock { $0.threads } }

    /// How many abandoned jobs still hold a thread (or wait for one).
    package var stuckCount: Int { stuck.load(ordering: .relaxed) }

    /// Whether every thread the pool may have is held by a job the executor gave up on: a new
    /// job would wait until one of them returns, if ever.
    package var isHeldByStuckJobs: Bool { stuck.load(ordering: .relaxed) >= maxThreads }

    /// Runs `job` on one of the pool's threads (queued while all ``maxThreads`` are busy).
    ///
    /// From a task running on one of the pool's threads (see ``enqueue(_:)``), the job runs on
    /// that thread as soon as the task waits: handing it over wakes no other thread.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        if let worker = PoolWorker.current, worker.belongs(to: self), worker.takesNext(job, lua: true) { return }
        let startThread = state.withLock { s -> Bool in
            s.jobs.append((job, true))
            let pending = s.jobs.count - s.head
            if pending > s.idle, s.threads < maxThreads {
                s.threads += 1
                return true
            }
            return false
        }
        available.signal()
        if startThread { start() }
    }

    /// Runs a task's `job` on a thread of the pool that waits for work, when one waits that no
    /// queued job has claimed yet; returns false, and runs nothing, when none does (the job then
    /// belongs elsewhere: it must not wait behind Lua jobs at work).
    func runOnIdleThread(_ job: @escaping @Sendable () -> Void) -> Bool {
        let taken = state.withLock { s -> Bool in
            guard s.jobs.count - s.head < s.idle else { return false }
            s.jobs.append((job, false))
            return true
        }
        if taken { available.signal() }
        return taken
    }

    /// Notes that the executor gave up on a job of this pool.
    func stuckJobBegan() { stuck.add(1, ordering: .relaxed) }

    /// Notes that a job the executor gave up on has returned (or never started).
    func stuckJobEnded() { stuck.subtract(1, ordering: .relaxed) }

    /// Notes that the Lua job running on this thread has finished its work: a task it resumes
    /// now may run on this thread next.
    func jobFinishing() { PoolWorker.current?.finishing = true }

    private func start() {
        let thread = Thread { [self] in work(PoolWorker(pool: self)) }
        thread.stackSize = stackSize
        thread.name = "lua"
        thread.start()
    }

    private func work(_ worker: PoolWorker) {
        worker.makeCurrent()
        while true {
            if let (job, lua) = worker.takeNext() {
                worker.run(job, lua: lua)
                continue
            }
            state.withLock { $0.idle += 1 }
            available.wait()
            let job = state.withLock { s -> (run: @Sendable () -> Void, lua: Bool) in
                s.idle -= 1
                let job = s.jobs[s.head]
                s.head += 1
                if s.head > 64, s.head * 2 > s.jobs.count {
                    s.jobs.removeFirst(s.head)
                    s.head = 0
                }
                return job
            }
            worker.run(job.run, lua: job.lua)
        }
    }
}
