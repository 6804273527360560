// Fuzz target: payload parsing, JSON (`.json`) and `.apns` files.
//
// Every input must be refused with a PayloadError or accepted; a JSON value that parses must
// write and parse back to the same value. The JSON reader is also checked against Foundation's
// JSONSerialization, which read files before it: they must accept the same texts, except
// those Foundation takes leniently (trailing commas, UTF-16 and UTF-32), and read them to the
// same values (numbers compared by value: Foundation rounds long decimals on its own).
import Foundation
import NotificationModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    let read = Result { () throws(JSONError) in try JSONValue(jsonData: bytes) }
    compareWithFoundation(read, bytes)
    if case .success(let value) = read {
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

private func compareWithFoundation(_ read: Result<JSONValue, JSONError>, _ bytes: Data) {
    let theirs = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed])
    switch (read, theirs) {
    case (.success(let value), let object?):
        guard same(value, object) else { fatalError("payload: \(value) where Foundation reads \(object) from \(Array(bytes))") }
    case (.success(let value), nil):
        fatalError("payload: \(value) read from what Foundation refuses: \(Array(bytes))")
    case (.failure(let error), _?):
        guard error.message.contains("a comma before") || error.message.contains("UTF-16 or UTF-32") else {
            fatalError("payload: \(error.message) where Foundation reads \(Array(bytes))")
        }
    case (.failure, nil):
        break
    }
}

/// The class Foundation uses for booleans, found without CoreFoundation.
private let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

private func same(_ value: JSONValue, _ object: Any) -> Bool {
    switch (value, object) {
    case (.null, is NSNull): return true
    case (.string(let string), let other as String): return string == other
    case (.bool(let bool), let number as NSNumber): return ObjectIdentifier(type(of: number)) == booleanClass && number.boolValue == bool
    case (.integer(let integer), let number as NSNumber):
        return ObjectIdentifier(type(of: number)) != booleanClass && close(Double(integer), number.doubleValue)
    case (.number(let double), let number as NSNumber):
        return ObjectIdentifier(type(of: number)) != booleanClass && close(double, number.doubleValue)
    case (.array(let array), let other as [Any]):
        return array.count == other.count && zip(array, other).allSatisfy { same($0, $1) }
    case (.object(let members), let other as [String: Any]):
        return members.count == other.count && members.allSatisfy { key, member in other[key].map { same(member, $0) } ?? false }
    default: return false
    }
}

private func close(_ a: Double, _ b: Double) -> Bool {
    a == b || abs(a - b) <= 1e-12 * max(abs(a), abs(b))
}
