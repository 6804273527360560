import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A task that prefers the pool as its executor (`withTaskExecutorPreference`) runs on the
/// pool's threads between their Lua jobs: a task that hands a job to the pool and waits for it
/// goes on, when the job is done, on the thread that ran it, and its next job runs on that
/// thread too, so that a loop of deliveries wakes no thread. What a task resumes there (the
/// task awaiting it, the next request of a queue) runs there after it; a thread keeps one such
/// task, and a second goes to a thread of the pool that waits for work, if one does, so that
/// tasks started together run in parallel. A task resumed from elsewhere (a reader thread, the
/// watchdog, a download's callback, a Lua job still at work) runs on a thread of the pool that
/// waits for work, if one does, and its Lua job then runs on that thread too; else on a thread
/// of the global dispatch queue, as any task does, so that no task waits behind a Lua job at
/// work, and a stuck Lua job holds no task.
extension LuaThreadPool: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let run: @Sendable () -> Void = { job.runSynchronously(on: executor) }
        if let worker = PoolWorker.current, worker.belongs(to: self) {
            // One task waits on this thread; a second one goes to a thread that waits for work,
            // so that tasks started together (serve's apps, bench's lanes) run in parallel.
            if worker.hasNothingNext, worker.takesNext(run, lua: false) { return }
            if runOnIdleThread(run) { return }
            if worker.takesNext(run, lua: false) { return }
        } else if runOnIdleThread(run) {
            return
        }
        DispatchQueue.global().async(execute: run)
    }
}

/// What a thread of the pool keeps for itself: the few jobs it handed itself to run next, in
/// order. Touched only by its own thread.
final class PoolWorker {
    /// The pool's identity: compared, never retained (a reference to the pool loaded here
    /// would retain it, on every job, from every thread).
    private let poolIdentity: ObjectIdentifier
    private var next: [(job: @Sendable () -> Void, lua: Bool)] = []
    /// Whether the thread is running a Lua job (not a task of the pool's).
    private var inLuaJob = false
    /// Whether that Lua job has finished its work (see ``LuaThreadPool/jobFinishing()``).
    var finishing = false

    /// The most jobs a thread keeps for itself; more go where they would without it.
    static let capacity = 4

    init(pool: LuaThreadPool) {
        poolIdentity = ObjectIdentifier(pool)
        next.reserveCapacity(Self.capacity)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether this is a thread of `pool`.
    func belongs(to pool: LuaThreadPool) -> Bool { poolIdentity == ObjectIdentifier(pool) }

    /// The worker of the current thread, when it is a pool thread.
    static var current: PoolWorker? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<PoolWorker>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Makes this the worker of the current thread (which keeps it for its life).
    func makeCurrent() {
        pthread_setspecific(Self.key, Unmanaged.passRetained(self).toOpaque())
    }

    /// Keeps `job` to run on this thread after what it runs now, when it may: there is room,
    /// and the thread runs no Lua job or one that has finished, and keeps none to run (a task
    /// must not wait behind a Lua job at work; a Lua job handed on from a task runs once the
    /// task waits). It keeps one Lua job at a time: another goes to the shared queue, where an
    /// idle thread takes it.
    func takesNext(_ job: @escaping @Sendable () -> Void, lua: Bool) -> Bool {
        guard next.count < Self.capacity else { return false }
        let keepsLua = next.contains { $0.lua }
        if lua ? (inLuaJob || keepsLua) : ((inLuaJob && !finishing) || keepsLua) { return false }
        next.append((job, lua))
        return true
    }

    /// Whether this thread has handed itself no job yet.
    var hasNothingNext: Bool { next.isEmpty }

    /// The first job this thread handed itself, if any.
    func takeNext() -> (@Sendable () -> Void, Bool)? {
        guard !next.isEmpty else { return nil }
        let first = next.removeFirst()
        return (first.job, first.lua)
    }

    /// Runs a job on this thread.
    func run(_ job: () -> Void, lua: Bool) {
        inLuaJob = lua
        finishing = false
        job()
        inLuaJob = false
    }
}
