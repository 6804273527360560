// Fuzz target: json.decode and json.encode round trips inside the sandbox.
//
// The input is handed to a script as a string. Whatever json.decode accepts, json.encode must
// encode, and decoding that text again must encode to the same text; the script reports any
// difference in the delivered title. The request must always be delivered, completed.
import Dispatch
import Foundation
import NotificationModel
import ScriptHost

private let script = Script(name: "json.lua", source: """
    function didReceive(request, content)
      local input = content.userInfo.input
      local value = json.decode(input)
      if value == nil then content.title = "refused" return end
      local text, err = json.encode(value)
      if text == nil then content.title = "refused: " .. err return end
      local again = json.decode(text)
      if again == nil then content.title = "mismatch: the encoding does not decode: " .. text return end
      local text2 = json.encode(again)
      if text2 ~= text then content.title = "mismatch: " .. text .. " then " .. tostring(text2) return end
      content.title = "same"
    end
    """)

private let host: ScriptHost = {
    var limits = ScriptLimits.default
    limits.cpuTime = .seconds(5)
    return ScriptHost(configuration: HostConfiguration(limits: limits, offline: true))
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= 3000 else { return 0 }
    let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let payload = try? Payload(userInfo: ["aps": .object(["mutable-content": .integer(1)]), "input": .string(input)]) else { return 0 }
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox()
    Task {
        box.result = await host.deliver(NotificationRequest(payload: payload, app: "com.example.fuzz"), script: .script(script))
        done.signal()
    }
    done.wait()
    guard let result = box.result else { fatalError("json: no result") }
    guard result.outcome == .completed else {
        fatalError("json: the request fell back: \(String(describing: result.reason)) for input \(input.debugDescription)")
    }
    if result.content.title.hasPrefix("mismatch") {
        fatalError("json: \(result.content.title) for input \(input.debugDescription)")
    }
    return 0
}

private final class ResultBox: @unchecked Sendable {
    var result: DeliveryResult?
}
