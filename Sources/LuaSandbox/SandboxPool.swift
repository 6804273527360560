import Synchronization

/// Something that owns a sandbox: a ``LuaSandbox`` itself, or a host's wrapper around one that
/// keeps what it built in it (compiled chunks, classes).
package protocol SandboxHolding: AnyObject, Sendable {
    /// The sandbox held.
    var sandbox: LuaSandbox { get }
}

extension LuaSandbox: SandboxHolding {
    /// The sandbox itself.
    package var sandbox: LuaSandbox { self }
}

/// Idle sandboxes of one kind (one app's), reused across runs.
///
/// A sandbox goes back into the pool only when no limit ever stopped a run in it and no
/// deadline abandoned it; any other is dropped, and the next ``checkOut()`` makes a new one.
package final class SandboxPool<Holder: SandboxHolding>: Sendable {
    // Seen by the inlinable checkOut and checkIn, which are specialized where they are called
    // (a generic call would look up the holder's type metadata at every run).
    @usableFromInline let make: @Sendable () throws(SandboxError) -> Holder
    @usableFromInline let idle = Mutex<[Holder]>([])
    @usableFromInline let made = Atomic<Int>(0)
    /// How many idle sandboxes the pool keeps at most.
    package let maxIdle: Int

    /// A pool that makes sandboxes with `make` and keeps at most `maxIdle` idle ones.
    package init(maxIdle: Int = 4, make: @escaping @Sendable () throws(SandboxError) -> Holder) {
        self.maxIdle = maxIdle
        self.make = make
    }

    /// An idle sandbox, or a new one.
    @inlinable
    package func checkOut() throws(SandboxError) -> Holder {
        if let holder = idle.withLock({ $0.popLast() }) { return holder }
        made.add(1, ordering: .relaxed)
        return try make()
    }

    /// Gives a sandbox back after a run. It is kept only when it may be reused.
    @inlinable
    package func checkIn(_ holder: Holder) {
        guard !holder.sandbox.isAbandoned else { return }
        let kept = !holder.sandbox.hasHitLimit && idle.withLock { idle -> Bool in
            guard idle.count < maxIdle else { return false }
            idle.append(holder)
            return true
        }
        // One let go is retired, so that its state is closed with its last reference.
        if !kept { holder.sandbox.retire() }
    }

    /// Lets go of every idle sandbox (each is closed when its last reference goes); returns how
    /// many. Sandboxes checked out now are kept when they come back, as usual.
    @discardableResult
    package func removeIdle() -> Int {
        let removed = idle.withLock { idle -> [Holder] in
            defer { idle.removeAll() }
            return idle
        }
        for holder in removed { holder.sandbox.retire() }
        return removed.count
    }

    /// How many sandboxes the pool has made so far.
    package var madeCount: Int { made.load(ordering: .relaxed) }

    /// How many idle sandboxes the pool holds.
    package var idleCount: Int { idle.withLock { $0.count } }
}
