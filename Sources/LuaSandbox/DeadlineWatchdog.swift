import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// One thread that runs actions when their deadlines come.
///
/// A delivery schedules its deadline here and cancels it when the job returns, which costs a
/// lock and no thread wake-up in the usual case: a new deadline wakes the thread only when it is
/// earlier than the one the thread sleeps until. (A timer per job costs a kernel round trip to
/// the timer thread on every request.) The actions are kept in shards, one per thread that
/// schedules (up to ``shardCount``), so that deliveries on different threads take different
/// locks; the watchdog's thread looks through all of them.
final class DeadlineWatchdog: Sendable {
    static let shared = DeadlineWatchdog()

    /// How many shards the actions are kept in.
    static let shardCount = 8

    fileprivate struct Entry {
        let deadline: Deadline
        let action: @Sendable () -> Void
    }

    fileprivate final class Shard: Sendable {
        let entries = Mutex<[UInt64: Entry]>([:])
    }

    private let shards = (0..<DeadlineWatchdog.shardCount).map { _ in Shard() }
    private let nextID = Atomic<UInt64>(0)
    /// The deadline the thread sleeps until, in ``Deadline`` nanoseconds (`Int64.max`: until signalled).
    private let sleepsUntil = Atomic<Int64>(Int64.max)
    /// Whether the thread is looking through the shards (a deadline scheduled then may be missed
    /// by the look, so it signals).
    private let looking = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    /// The shard of the calling thread: threads are given shards in turn.
    private static let nextShard = Atomic<Int>(0)
    private static let shardKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static var currentShard: Int {
        if let value = pthread_getspecific(shardKey) { return Int(bitPattern: value) - 1 }
        let shard = nextShard.add(1, ordering: .relaxed).oldValue % shardCount
        pthread_setspecific(shardKey, UnsafeRawPointer(bitPattern: shard + 1))
        return shard
    }

    /// Runs `action` on the watchdog's thread at `deadline` unless cancelled first.
    func schedule(at deadline: Deadline, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let shard = Self.currentShard
        let id = nextID.add(1, ordering: .relaxed).newValue * UInt64(Self.shardCount) + UInt64(shard)
        shards[shard].entries.withLock { $0[id] = Entry(deadline: deadline, action: action) }
        if !started.load(ordering: .acquiring), started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            let thread = Thread { [self] in loop() }
            thread.name = "deadlines"
            thread.start()
        }
        // The thread's look may have passed this shard already, or it sleeps past this deadline.
        if looking.load(ordering: .sequentiallyConsistent) || deadline.nanoseconds < sleepsUntil.load(ordering: .sequentiallyConsistent) {
            wake.signal()
        }
        return id
    }

    /// Drops a scheduled action; it will not run.
    func cancel(_ id: UInt64) {
        _ = shards[Int(id % UInt64(Self.shardCount))].entries.withLock { $0.removeValue(forKey: id) }
    }

    /// How many actions are scheduled and not yet run or cancelled.
    var scheduledCount: Int { shards.reduce(0) { $0 + $1.entries.withLock { $0.count } } }

    private func loop() {
        while true {
            looking.store(true, ordering: .sequentiallyConsistent)
            let now = Deadline.now()
            var due: [@Sendable () -> Void] = []
            var next: Deadline?
            for shard in shards {
                shard.entries.withLock { entries in
                    for (id, entry) in entries {
                        if entry.deadline <= now {
                            due.append(entry.action)
                            entries[id] = nil
                        } else if next.map({ entry.deadline < $0 }) ?? true {
                            next = entry.deadline
                        }
                    }
                }
            }
            sleepsUntil.store(next?.nanoseconds ?? Int64.max, ordering: .sequentiallyConsistent)
            looking.store(false, ordering: .sequentiallyConsistent)
            for action in due { action() }
            if let next {
                _ = wake.wait(timeout: next.dispatchTime)
            } else {
                wake.wait()
            }
        }
    }
}
