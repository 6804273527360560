import LuaSandbox

extension ScriptHost {
    /// Lets go of the idle Lua states of every app that has not started a request for
    /// `interval`, so that a host of many apps keeps states only for the busy ones; an app's
    /// next request makes a new state (its script compiled again), and its store and
    /// categories stay. Returns how many states were let go.
    @discardableResult
    public func releaseIdleLuaStates(unusedFor interval: Duration) -> Int {
        let (seconds, attoseconds) = interval.components
        let cutoff = Deadline.now().nanoseconds - (seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let runtimes = apps.withLock { Array($0.values) }
        return runtimes.reduce(0) { $0 + $1.releaseIdleStates(unusedSince: cutoff) }
    }

    /// How many Lua threads the host's pool has started (each holds its stack for the life of
    /// the process).
    public var luaThreadCount: Int { services.executor.pool.threadCount }

    /// How many Lua jobs the host gave up on as stuck still hold a thread: a call that no
    /// check interrupts, whose CPU goes on until it returns (or the process ends).
    public var stuckLuaJobCount: Int { services.executor.pool.stuckCount }
}
