import LuaSandbox
import NotificationModel

/// A rule written in Swift in place of a script's `didReceive`: it changes the content as the
/// script would. For measuring what the script layer itself costs (`pushscript bench --native`).
package typealias NativeRule = @Sendable (inout NotificationContent) -> Void

extension ScriptHost {
    /// Delivers `request` through the pipeline a script's request takes — the run, one job on
    /// a Lua thread under the request's limits and deadline, the result — with `rule` in place
    /// of the app's script.
    package func deliver(_ request: NotificationRequest, native rule: @escaping NativeRule) async -> DeliveryResult {
        let run = makeRun(request)
        let sandboxes = runtime(for: run.app).pool(services)
        switch await runJob(run, in: sandboxes, { hosted, _ in hosted.runNative(run, rule) }) {
        case .noSandbox(let result):
            return result
        case .ran(_, .finished(let cost)):
            return finish(run, nil, cost: cost)
        case .ran(_, .notStarted):
            return finish(run, DeliveryResult.Reason.time(run.timeCause, .queue), original: true)
        case .ran(_, .abandoned):
            return finish(run, DeliveryResult.Reason.limit(.time, run.limits, cause: run.timeCause), original: false)
        }
    }
}
