import CLuaShims

extension LuaSandbox {
    /// Bytes the state may hold now: the limit of the run armed last.
    public var memoryLimit: Int { pss_memory_limit(context) }

    /// Bytes the state may still take before its limit (0 when it is at or past it). Host
    /// functions refuse to build what would not fit in it, before building it.
    public var memoryLeft: Int { max(0, memoryLimit - memoryUsed) }
}
