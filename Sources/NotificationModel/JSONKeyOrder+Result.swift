extension JSONKeyOrder {
    /// The order of the result object of SPEC §2: `outcome, reason, suppressed, content, logs,
    /// stats` (after `id` when `serve` adds one), the content's fields in SPEC §1 order, a
    /// reason as `kind, message`, a log entry as `level, message, source`.
    public static let result = JSONKeyOrder(
        first: ["id", "outcome", "reason", "suppressed", "content", "logs", "stats"],
        nested: [
            "reason": JSONKeyOrder(first: ["kind", "message"]),
            "content": NotificationContent.jsonKeyOrder,
            "logs": JSONKeyOrder(first: ["level", "message", "source"]),
            "stats": JSONKeyOrder(first: ["cpuMs", "wallMs", "memoryPeakBytes"]),
        ]
    )
}
