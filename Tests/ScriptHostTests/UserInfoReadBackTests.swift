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
}
