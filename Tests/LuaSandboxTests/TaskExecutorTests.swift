import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import LuaSandbox

/// A task that prefers the thread pool as its executor goes on, after a job, on the thread that
/// ran it, and hands that thread its next job; a stuck job still lets it go on at its deadline.
@Suite(.serialized) struct TaskExecutorTests {
    @Test func aTaskThatPrefersThePoolStaysOnTheThreadOfItsJobs() async throws {
        let pool = LuaThreadPool(maxThreads: 4)
        let executor = SandboxExecutor(pool: pool)
        let sandbox = try LuaSandbox()
        let (jobs, after) = await withTaskExecutorPreference(pool) { () async -> ([pthread_t], [pthread_t]) in
            var jobs: [pthread_t] = []
            var after: [pthread_t] = []
            for _ in 0..<20 {
                guard case .finished(let thread) = await executor.run(sandbox, deadline: .after(.seconds(5)), { _ in pthread_self() })
                else { return ([], []) }
                jobs.append(thread)
                after.append(pthread_self())
            }
            return (jobs, after)
        }
        #expect(jobs.count == 20)
        // after the first hand-off (from the test's own thread), every job and the task after
        // it run on one thread: nothing was handed to another
        #expect(Set(jobs.dropFirst()).count == 1)
        #expect(jobs.dropFirst() == after.dropFirst())
        #expect(pool.threadCount == 1)
    }

    /// Starts `count` threads in `pool` and lets them go idle.
    static func warm(_ pool: LuaThreadPool, threads count: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask { await withCheckedContinuation { done in pool.submit { Thread.sleep(forTimeInterval: 0.05); done.resume() } } }
            }
        }
        try? await Task.sleep(for: .milliseconds(50))
    }

    @Test func aTaskStartedFromElsewhereRunsOnAThreadOfThePoolThatWaits() async throws {
        let pool = LuaThreadPool(maxThreads: 4)
        await Self.warm(pool, threads: 2)
        let onPool = await Task(executorPreference: pool) { PoolWorker.current?.belongs(to: pool) ?? false }.value
        #expect(onPool)
        #expect(pool.threadCount == 2)
    }

    @Test func tasksStartedTogetherOnAPoolThreadRunInParallel() async throws {
        let pool = LuaThreadPool(maxThreads: 4)
        await Self.warm(pool, threads: 3)
        let start = ContinuousClock.now
        let threads = await Task(executorPreference: pool) { () async -> [pthread_t] in
            await withTaskGroup(of: pthread_t.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        usleep(300_000)  // busy, as a task running a script is
                        return pthread_self()
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }.value
        #expect(threads.count == 2 && threads[0] != threads[1])
        #expect(ContinuousClock.now - start < .milliseconds(550), "the two tasks ran one after the other")
    }

    /// A thread keeps a task (here a child task) and then the Lua job a task hands it; the
    /// kept task starts another task before that job runs. The new task must not wait behind
    /// the job: the job may run until its deadline, or be stuck past it (a lock held elsewhere).
    @Test func aTaskStartedBeforeAKeptLuaJobDoesNotWaitBehindIt() async throws {
        let pool = LuaThreadPool(maxThreads: 4)
        let started = DispatchSemaphore(value: 0)
        let waited = await Task(executorPreference: pool) { () async -> Bool in
            // onto a thread of the pool, as a task its job resumes goes on there
            await withCheckedContinuation { done in pool.submit { pool.jobFinishing(); done.resume() } }
            return await withTaskGroup(of: Void.self) { group in
                // kept by this thread first: it starts a task when it runs
                group.addTask { _ = Task(executorPreference: pool) { started.signal() } }
                // then the job, kept after it: it waits at work for that task to start
                let waited = await withCheckedContinuation { done in
                    pool.submit { done.resume(returning: started.wait(timeout: .now() + 2) == .timedOut) }
                }
                await group.waitForAll()
                return waited
            }
        }.value
        #expect(!waited, "the task waited behind the Lua job at work")
    }

    @Test func withoutThePreferenceATaskGoesBackToTheGlobalExecutor() async throws {
        let pool = LuaThreadPool(maxThreads: 4)
        let executor = SandboxExecutor(pool: pool)
        let sandbox = try LuaSandbox()
        guard case .finished(let job) = await executor.run(sandbox, deadline: .after(.seconds(5)), { _ in pthread_self() }) else {
            Issue.record("not finished")
            return
        }
        #expect(job != pthread_self())
    }

    @Test func aStuckJobStillLetsThePreferringTaskGoOnAtItsDeadline() async throws {
        let pool = LuaThreadPool(maxThreads: 4)
        let executor = SandboxExecutor(pool: pool)
        let stuck = try LuaSandbox()
        stuck.register("stuck") { _ in
            Thread.sleep(forTimeInterval: 2)  // a C call no hook can interrupt
            return .none
        }
        let start = Deadline.now()
        let (first, second) = await withTaskExecutorPreference(pool) { () async -> (JobOutcome<RunStatus>, JobOutcome<RunStatus>?) in
            let first = await executor.run(stuck, deadline: .after(.milliseconds(200)), grace: .milliseconds(50)) { sandbox in
                runScript("stuck() while true do end", in: sandbox,
                          limits: RunLimits(cpuTime: .seconds(10), memoryBytes: 8 << 20, deadline: .after(.milliseconds(200))))
            }
            guard let fresh = try? LuaSandbox() else { return (first, nil) }
            let second = await executor.run(fresh, deadline: .after(.seconds(5))) { sandbox in
                runScript("local n = 0 for i = 1, 100 do n = n + i end", in: sandbox)
            }
            return (first, second)
        }
        let waited = (Deadline.now().nanoseconds - start.nanoseconds) / 1_000_000
        guard case .abandoned = first else {
            Issue.record("expected abandonment, got \(first)")
            return
        }
        guard case .finished(.completed)? = second else {
            Issue.record("the next job did not run: \(String(describing: second))")
            return
        }
        #expect(waited >= 240 && waited < 1000, "waited \(waited) ms")
    }
}
