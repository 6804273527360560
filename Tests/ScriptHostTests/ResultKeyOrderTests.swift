import NotificationModel
import ScriptHost
import Testing

@Suite struct ResultKeyOrderTests {
    @Test func resultObjectIsWrittenInSpecOrder() throws {
        var content = NotificationContent()
        content.body = "b"
        let result = DeliveryResult(
            outcome: .fallback, reason: .init(kind: .error, message: "boom"), suppressed: true, content: content,
            logs: [LogEntry(level: .warn, message: "m", source: "host")],
            stats: .init(cpuMs: 0.21, wallMs: 3.4, memoryPeakBytes: 1))
        let text = result.jsonLine()
        #expect(text.hasPrefix(#"{"outcome":"fallback","reason":{"kind":"error","message":"boom"},"suppressed":true,"#
            + #""content":{"title":"","subtitle":"","body":"b","badge":null,"#))
        #expect(text.hasSuffix(#""logs":[{"level":"warn","message":"m","source":"host"}],"#
            + #""stats":{"cpuMs":0.21,"wallMs":3.4,"deliveredMs":3.4,"memoryPeakBytes":1},"#
            + #""script":null,"registeredCategories":[],"categories":[],"posts":[]}"#))
    }

    @Test func serveIdComesFirst() throws {
        let result = DeliveryResult(outcome: .completed, reason: nil, content: NotificationContent(), stats: .init(cpuMs: 0, wallMs: 0, memoryPeakBytes: 0))
        #expect(result.jsonLine(id: 7).hasPrefix(#"{"id":7,"outcome":"completed","#))
    }
}
