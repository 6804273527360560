// Fuzz target: the line reader of `pushscript serve` (ServeLine.parse, and the app found
// without reading the line as JSON, compiled in from Sources/pushscript/Serve/ServeLine*.swift
// and MemberScanner.swift).
//
// Every line is a request or an error answer; an error answer is one line of valid JSON that
// echoes the id as it was read (compared as written text) and gives a message. A request's app
// is the one the intake routed it by.
import Foundation
import NotificationModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServeLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = Array(UnsafeBufferPointer(start: data, count: size))
    let defaultApp = size % 2 == 0 ? "com.example.default" : nil
    switch ServeLine.parse(line, defaultApp: defaultApp) {
    case .invalid(let id, let message):
        let answer = ServeLine.errorLine(id: id, message: message)
        guard answer.last == 0x0A, !answer.dropLast().contains(0x0A), let parsed = try? JSONValue(jsonUTF8: answer.dropLast()) else {
            fatalError("serve-line: the error answer is not one line of JSON: \(String(decoding: answer, as: UTF8.self))")
        }
        guard let idText = try? id.jsonString(), String(decoding: answer, as: UTF8.self).hasPrefix(#"{"id":"# + idText + #","error":"#),
              case .object(let object) = parsed, object["error"] == .string(message), !message.isEmpty else {
            fatalError("serve-line: the error answer lost its id or message: \(String(decoding: answer, as: UTF8.self))")
        }
    case .request(_, let request):
        guard let app = request.resolvedApp, !app.isEmpty else {
            fatalError("serve-line: a request without an app was accepted: \(String(decoding: line, as: UTF8.self))")
        }
        // The intake routes by the app it finds in the bytes; the request is served as the
        // app it reads. An app written with escapes may be routed as another (its order is
        // then kept under that name), never lost: only an unescaped app must agree.
        if let routed = ServeLine.app(in: line, defaultApp: defaultApp), !line.contains(UInt8(ascii: "\\")), routed != app {
            fatalError("serve-line: routed as '\(routed)', served as '\(app)': \(String(decoding: line, as: UTF8.self))")
        }
    }
    return 0
}
