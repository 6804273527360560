import NotificationModel
import ScriptHost
import Testing

@Suite struct ResultKeyOrderTests {
    @Test func resultObjectIsWrittenInSpecOrder() throws {
        var content = NotificationContent()
        content.body = "b"
        let result: JSONValue = [
            "stats": ["memoryPeakBytes": 1, "wallMs": 3.4, "cpuMs": 0.21],
            "logs": [["source": "host", "message": "m", "level": "warn"]],
            "content": content.jsonValue,
            "suppressed": true,
            "reason": ["message": "boom", "kind": "error"],
            "outcome": "fallback",
        ]
        let text = try result.jsonString(keyOrder: DeliveryResult.keyOrder)
        #expect(text.hasPrefix(#"{"outcome":"fallback","reason":{"kind":"error","message":"boom"},"suppressed":true,"#
            + #""content":{"title":"","subtitle":"","body":"b","badge":null,"#))
        #expect(text.hasSuffix(#""logs":[{"level":"warn","message":"m","source":"host"}],"#
            + #""stats":{"cpuMs":0.21,"wallMs":3.4,"memoryPeakBytes":1}}"#))
    }

    @Test func serveIdComesFirst() throws {
        let line: JSONValue = ["outcome": "completed", "id": 7]
        #expect(try line.jsonString(keyOrder: DeliveryResult.keyOrder) == #"{"id":7,"outcome":"completed"}"#)
    }
}
