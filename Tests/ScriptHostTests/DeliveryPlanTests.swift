import LuaSandbox
import Testing
@testable import ScriptHost

/// The delivery's decisions, driven without Lua.
@Suite struct DeliveryPlanTests {
    let limits = ScriptLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, time: .milliseconds(300))

    @Test func aFinishedJobIsDeliveredAsDidReceiveEnded() {
        let completed = DeliveryPlan.afterJob(.completed)
        #expect(completed.reason == nil && !completed.original)
        let load = DeliveryPlan.afterJob(.load("rules.lua:1: bad"))
        #expect(load.reason == .init(kind: .load, message: "rules.lua:1: bad") && load.original)
        let cpu = DeliveryResult.Reason.limit(.cpu, limits)
        let failed = DeliveryPlan.afterJob(.failed(cpu))
        #expect(failed.reason == cpu && !failed.original)
    }

    @Test func aJobStuckInItsChunkIsALoadFailureAndTheChunkIsNotRunAgain() {
        let step = DeliveryPlan.afterAbandonment(at: .loading, script: "rules.lua", limits: limits)
        #expect(step == .deliver(
            reason: .init(kind: .load, message: "rules.lua did not load: the deadline of 300 ms came while its chunk ran"),
            original: true, warning: "the script did not stop at the deadline; its Lua state was abandoned"))
    }

    @Test func aJobStuckInDidReceiveOrBeforeItsChunkGetsAFreshBestAttempt() {
        let time = DeliveryResult.Reason.limit(.time, limits)
        #expect(DeliveryPlan.afterAbandonment(at: .didReceive, script: "rules.lua", limits: limits) == .bestAttemptInFreshState(time))
        #expect(DeliveryPlan.afterAbandonment(at: .waiting, script: "rules.lua", limits: limits) == .bestAttemptInFreshState(time))
    }

    @Test func aJobStuckInBestAttemptDeliversTheContentAsItStood() {
        let error = DeliveryResult.Reason(kind: .error, message: "rules.lua:2: no")
        let step = DeliveryPlan.afterAbandonment(at: .bestAttempt(after: error), script: "rules.lua", limits: limits)
        #expect(step == .deliver(reason: error, original: false, warning: "bestAttempt did not return within 250 ms; the content is delivered as it stood"))
    }
}
