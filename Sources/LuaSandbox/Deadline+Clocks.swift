import Dispatch

/// A request runs on one clock, ``Deadline``'s (`CLOCK_MONOTONIC`, the one the C hooks check).
/// These are the only places it meets another: an API that takes a Dispatch time or a
/// `ContinuousClock` instant gets the same time left.
extension Deadline {
    /// The deadline for a Dispatch wait (`DispatchSemaphore.wait(timeout:)`): as much time from
    /// now as is left, none when it has passed.
    package var dispatchTime: DispatchTime {
        .now() + .nanoseconds(Int(clamping: max(0, remaining.nanoseconds)))
    }

    /// The deadline as a `ContinuousClock` instant, for an API that counts on that clock (the
    /// media downloader): as much time from now as is left.
    package var continuousInstant: ContinuousClock.Instant {
        .now + remaining
    }
}
