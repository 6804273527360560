import Testing
import NotificationModel
@testable import ScriptHost

/// What a script does to the live `content.userInfo` is delivered, however little it changed
/// from the payload the host wrote into it, and a `userInfo` it only read stays as it came.
@Suite struct UserInfoReadBackTests {
    @Test func anEmptyObjectTurnedIntoAnEmptyArrayIsDelivered() async throws {
        let result = try await deliver(
            #"function didReceive(r, c) c.userInfo.data = json.decode("[]") end"#,
            payload: try originalPayload(extra: #", "data": {}"#))
        #expect(result.outcome == .completed)
        #expect(result.content.userInfo["data"] == .array([]))
    }

    /// The change is made before memory runs out: the content as the script left it is
    /// delivered, even when the payload has keys too long for Lua to share.
    @Test func aChangeMadeBeforeMemoryRanOutIsDelivered() async throws {
        let key = String(repeating: "k", count: 2000)
        let result = try await deliver(
            "function didReceive(r, c) c.userInfo.seen = true hog = nil while true do hog = {hog} end end",
            payload: try originalPayload(extra: #", "\#(key)": 1"#),
            limits: ScriptLimits(cpuTime: .seconds(5), memoryBytes: 4 << 20, time: .seconds(10)))
        #expect(result.reason?.kind == .memory)
        #expect(result.content.userInfo["seen"] == .bool(true))
        #expect(!result.logs.contains { $0.message.contains("could not be read back") }, "\(result.logs)")
    }

    /// A payload nested as deep as the host can write into the state: a script that only
    /// reads it leaves it as it came.
    @Test func aDeepPayloadOnlyReadIsLeftAsItCame() async throws {
        let depth = 100
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let result = try await deliver(
            "function didReceive(r, c) c.body = tostring(#c.userInfo.deep) end",
            payload: try originalPayload(extra: #", "deep": \#(nested)"#))
        #expect(result.outcome == .completed, "\(String(describing: result.reason))")
        #expect(result.content.body == "1")
    }
}
