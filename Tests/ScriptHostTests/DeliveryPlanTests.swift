import LuaSandbox
import Testing
@testable import ScriptHost

/// The delivery's decisions, driven without Lua.
@Suite struct DeliveryPlanTests {
    let limits = ScriptLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, time: .milliseconds(300))
    var deadline: TimeCause { .deadline(limits.time) }

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
        let step = DeliveryPlan.afterAbandonment(at: .loading, script: "rules.lua", limits: limits, cause: deadline)
        #expect(step == .init(
            reason: .init(kind: .load, message: "rules.lua did not load: the deadline of 300 ms came while its chunk ran"),
            original: true, warning: "the script's chunk did not stop at the deadline; its Lua state was abandoned"))
    }

    @Test func aJobStuckWhileCompilingIsALoadFailureThatSaysSo() {
        let step = DeliveryPlan.afterAbandonment(at: .compiling, script: "rules.lua", limits: limits, cause: deadline)
        #expect(step.reason == .init(kind: .load, message: "rules.lua did not load: the deadline of 300 ms came while it compiled"))
        #expect(step.original)
        #expect(step.warning == "rules.lua did not finish compiling by the deadline; its Lua state was abandoned")
    }

    @Test func aJobStuckInDidReceiveDeliversTheContentAsLeftWithoutABestAttempt() {
        let step = DeliveryPlan.afterAbandonment(at: .didReceive, script: "rules.lua", limits: limits, cause: deadline)
        #expect(step.reason == .init(kind: .time, message: "the deadline of 300 ms came before didReceive returned"))
        #expect(!step.original)
        #expect(step.warning?.contains("didReceive did not stop") == true)
        #expect(step.warning?.contains("bestAttempt was not called") == true)
    }

    @Test func aJobStuckInTheReadBackSaysSo() {
        let step = DeliveryPlan.afterAbandonment(at: .readBack, script: "rules.lua", limits: limits, cause: .expiry(.milliseconds(100)))
        #expect(step.reason == .init(kind: .time, message: "the system's time ran out at 100 ms, while userInfo was read back after didReceive"))
        #expect(step.warning?.hasPrefix("reading userInfo back after didReceive did not stop") == true)
    }

    @Test func aJobStuckInBestAttemptDeliversTheContentAsItStood() {
        let error = DeliveryResult.Reason(kind: .error, message: "rules.lua:2: no")
        let step = DeliveryPlan.afterAbandonment(at: .bestAttempt(after: error), script: "rules.lua", limits: limits, cause: deadline)
        #expect(step == .init(reason: error, original: false, warning: "bestAttempt did not return within 250 ms; its Lua state was abandoned: the content is delivered as it stood"))
    }

    @Test func timeReasonsSayWhatEndedTheTime() {
        #expect(DeliveryResult.Reason.limit(.time, limits).message == "the deadline of 300 ms came before didReceive returned")
        #expect(DeliveryResult.Reason.limit(.time, limits, cause: .expiry(.milliseconds(100))).message
            == "the system's time ran out at 100 ms, before didReceive returned")
        #expect(DeliveryResult.Reason.limit(.time, limits, cause: .expired).message
            == "the system's time ran out (serviceExtensionTimeWillExpire) before didReceive returned")
        #expect(DeliveryResult.Reason.time(deadline, .queue).message
            == "the deadline of 300 ms came before a Lua thread was free; the script was not run")
    }
}
