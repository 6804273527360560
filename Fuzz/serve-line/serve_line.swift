// Fuzz target: the line reader of `pushscript serve` (ServeLine.parse, compiled in from
// Sources/pushscript/Serve/ServeLine.swift).
//
// Every line is a request or an error answer; an error answer is one line of valid JSON that
// echoes the id as it was read (compared as written text) and gives a message.
import Foundation
import NotificationModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServeLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let defaultApp = size % 2 == 0 ? "com.example.default" : nil
    switch ServeLine.parse(line, defaultApp: defaultApp) {
    case .invalid(let id, let message):
        let answer = ServeLine.errorLine(id: id, message: message)
        guard !answer.contains("\n"), let parsed = try? JSONValue(jsonString: answer) else {
            fatalError("serve-line: the error answer is not one line of JSON: \(answer)")
        }
        guard let idText = try? id.jsonString(), answer.hasPrefix(#"{"id":"# + idText + #","error":"#),
              case .object(let object) = parsed, object["error"] == .string(message), !message.isEmpty else {
            fatalError("serve-line: the error answer lost its id or message: \(answer)")
        }
    case .request(_, let request):
        guard request.resolvedApp?.isEmpty == false else {
            fatalError("serve-line: a request without an app was accepted: \(line)")
        }
    }
    return 0
}
