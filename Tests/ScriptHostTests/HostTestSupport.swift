import Foundation
import NotificationModel
@testable import ScriptHost

/// A payload from JSON text.
func payload(_ json: String) throws -> Payload {
    try Payload(jsonData: Data(json.utf8))
}

/// The standard test payload: title and body "original", mutable content.
func originalPayload(extra: String = "") throws -> Payload {
    try payload(#"{"aps": {"alert": {"title": "original", "body": "original"}, "mutable-content": 1}\#(extra)}"#)
}

/// Delivers `payload` through `host` with the script `source`.
func deliver(
    _ source: String, payload: Payload? = nil, host: ScriptHost = ScriptHost(), app: String? = "com.example.app",
    limits: ScriptLimits? = nil, name: String = "rules.lua"
) async throws -> DeliveryResult {
    let request = NotificationRequest(payload: try payload ?? originalPayload(), app: app, limits: limits)
    return await host.deliver(request, script: .script(Script(name: name, source: source)))
}

/// Small limits for tests that hit them.
let testLimits = ScriptLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, time: .seconds(2))
