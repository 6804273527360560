import Foundation
import NotificationModel

/// The payload examples of the major push providers, kept beside the tests in `Fixtures/`.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static let providers = [
        "airship", "batch", "braze", "clevertap", "customerio", "firebase",
        "iterable", "klaviyo", "moengage", "onesignal", "pinpoint", "pushwoosh",
    ]

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent("\(name).json"))
    }

    static func payload(_ name: String) throws -> Payload {
        try Payload(jsonData: data(name))
    }
}

/// The thrown error's message, or nil when nothing was thrown.
func message<Result>(of body: () throws -> Result) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return "\(error)"
    }
}

/// JSON text from a value, for building payloads in tests.
func data(_ value: JSONValue) throws -> Data {
    try value.jsonData()
}
