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
/// Copies of a pool are the same pool.
package struct SandboxPool<Holder: SandboxHolding>: Sendable {
    // Seen by the inlinable checkOut and checkIn, which are specialized where they are called.
    // The state is not generic: a generic class's stored properties are found through its
    // type metadata, looked up at every run.
    @usableFromInline let storage: SandboxPoolStorage

    /// A pool that makes sandboxes with `make` and keeps at most `maxIdle` idle ones.
    package init(maxIdle: Int = 4, make: @escaping @Sendable () throws(SandboxError) -> Holder) {
        storage = SandboxPoolStorage(maxIdle: maxIdle) { () throws(SandboxError) in try make() }
    }

    /// How many idle sandboxes the pool keeps at most.
    package var maxIdle: Int { storage.maxIdle }

    /// An idle sandbox, or a new one.
    @inlinable
    package func checkOut() throws(SandboxError) -> Holder {
        if let holder = storage.idle.withLock({ $0.popLast() }) { return unsafeDowncast(holder, to: Holder.self) }
        storage.made.add(1, ordering: .relaxed)
        return unsafeDowncast(try storage.make(), to: Holder.self)
    }

    /// Gives a sandbox back after a run. It is kept only when it may be reused.
    @inlinable
    package func checkIn(_ holder: Holder) {
        guard !holder.sandbox.isAbandoned else { return }
        let kept = !holder.sandbox.hasHitLimit && storage.idle.withLock { idle -> Bool in
            guard idle.count < storage.maxIdle else { return false }
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
        let removed = storage.idle.withLock { idle -> [AnyObject] in
            defer { idle.removeAll() }
            return idle
        }
        for holder in removed { unsafeDowncast(holder, to: Holder.self).sandbox.retire() }
        return removed.count
    }

    /// How many sandboxes the pool has made so far.
    package var madeCount: Int { storage.made.load(ordering: .relaxed) }

    /// How many idle sandboxes the pool holds.
    package var idleCount: Int { storage.idle.withLock { $0.count } }
}

/// A ``SandboxPool``'s state, the same for every kind of holder.
package final class SandboxPoolStorage: Sendable {
    @usableFromInline let make: @Sendable () throws(SandboxError) -> AnyObject
    /// The idle holders, each of the pool's `Holder` type.
    @usableFromInline let idle = Mutex<[AnyObject]>([])
    @usableFromInline let made = Atomic<Int>(0)
    @usableFromInline let maxIdle: Int

    init(maxIdle: Int, make: @escaping @Sendable () throws(SandboxError) -> AnyObject) {
        self.maxIdle = maxIdle
        self.make = make
    }
}
