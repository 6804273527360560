import CLuaSandbox

extension LuaSandbox {
    /// Bytes the state may hold now: the limit of the run armed last.
    package var memoryLimit: Int { pss_memory_limit(context) }

    /// Bytes the state may still take before its limit (0 when it is at or past it). Host
    /// functions refuse to build what would not fit in it, before building it.
    package var memoryLeft: Int { max(0, memoryLimit - memoryUsed) }

    /// The limit of the current run that has passed by now (its CPU budget or its deadline), or
    /// nil. Host functions that work long for one call ask it in their loops and return
    /// ``HostReturn/kill(_:)`` with it. Only the thread running the script asks.
    package func limitPassed() -> LimitKind? { LimitKind(trip: pss_limit_passed(context)) }
}
