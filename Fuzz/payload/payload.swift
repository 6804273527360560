// Fuzz target: payload parsing, JSON (`.json`) and `.apns` files.
//
// Every input must be refused with a PayloadError or accepted; a JSON value that parses must
// write and parse back to the same value.
import Foundation
import NotificationModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let value = try? JSONValue(jsonData: bytes) {
        guard let text = try? value.jsonString() else {
            fatalError("payload: a parsed JSON value cannot be written: \(value)")
        }
        guard let again = try? JSONValue(jsonString: text), again == value else {
            fatalError("payload: \(text) does not parse back to the value it was written from")
        }
    }
    if let payload = try? Payload(jsonData: bytes) {
        _ = NotificationContent(payload: payload)
    }
    if let payload = try? Payload(apnsFileData: bytes) {
        _ = NotificationContent(payload: payload)
    }
    return 0
}
