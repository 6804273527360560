/// What ended a request's time: the host's deadline (`limits.time`), the system's deadline the
/// request came with (`expireMs`), or the system saying so (``DeliverySession/expire()``).
enum TimeCause: Sendable, Hashable {
    /// The host's own deadline for the request, this long after its start.
    case deadline(Duration)
    /// The system's deadline the request was given, this long after its start.
    case expiry(Duration)
    /// The system's time ran out when it said so (`serviceExtensionTimeWillExpire`).
    case expired

    /// "the deadline of 200 ms came before didReceive returned", "the system's time ran out at
    /// 100 ms, before didReceive returned", "the system's time ran out
    /// (serviceExtensionTimeWillExpire) before didReceive returned": the cause, then `place`.
    func phrase(_ place: String) -> String {
        switch self {
        case .deadline(let d): return "the deadline of \(DeliveryResult.Reason.ms(d)) ms came \(place)"
        case .expiry(let d): return "the system's time ran out at \(DeliveryResult.Reason.ms(d)) ms, \(place)"
        case .expired: return "the system's time ran out (serviceExtensionTimeWillExpire) \(place)"
        }
    }
}

/// Where a request was when its time ran out, for a reason of kind `time`.
enum TimePlace: Sendable, Hashable {
    /// Its script waited to be checked (a new or changed file of a script directory).
    case lookup(String)
    /// Its job waited for a Lua thread (or had not been given one yet).
    case queue
    /// The system's time ran out before the job was given a thread.
    case start
    /// `didReceive` ran.
    case didReceive
    /// The host read the content's `userInfo` back after `didReceive`.
    case readBack

    var phrase: String {
        switch self {
        case .lookup(let file): return "before \(file) was checked; the script was not run"
        case .queue: return "before a Lua thread was free; the script was not run"
        case .start: return "before the script started; it was not run"
        case .didReceive: return "before didReceive returned"
        case .readBack: return "while userInfo was read back after didReceive"
        }
    }
}
