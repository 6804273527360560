#if canImport(UserNotifications)
import Dispatch
import Foundation
import ScriptHost

/// Keeps the extension's process while a session's after-delivery phase runs.
///
/// Once the content handler has been called, iOS may end the extension's process at any time;
/// `ProcessInfo.performExpiringActivity(withReason:using:)` asks it to wait while the activity's
/// block runs, and tells the block when it will not wait any longer. The after-delivery work
/// is therefore best effort: when the system ends the activity, the session is expired, which
/// stops the script where it is. On macOS, which has no such activity, the process simply
/// lives on until the system ends it.
enum ProcessActivity {
    /// Waits for `session` to finish while the system lets the process live; returns its
    /// final result.
    static func keep(while session: DeliverySession) async -> DeliveryResult {
        #if os(macOS)
        return await session.finished()
        #else
        let finished = DispatchSemaphore(value: 0)
        ProcessInfo.processInfo.performExpiringActivity(withReason: "PushScript after delivery") { expired in
            if expired {
                session.expire()
            } else {
                finished.wait()
            }
        }
        let result = await session.finished()
        finished.signal()
        return result
        #endif
    }
}
#endif
