import Foundation

/// A payload file: an `.apns` file (the format `xcrun simctl push` takes, whose
/// `Simulator Target Bundle` key names the app) or, by any other extension, a `.json` file.
/// The one place that tells them apart, for fixtures and every command.
public enum PayloadFile {
    /// Whether `path` names an `.apns` file (the extension in any case).
    public static func isAPNS(_ path: String) -> Bool {
        URL(fileURLWithPath: path).pathExtension.lowercased() == "apns"
    }

    /// The payload in `data`, read from the file at `path` and parsed as its extension says.
    ///
    /// - Throws: ``PayloadError`` when the payload is refused.
    public static func payload(_ data: Data, path: String) throws(PayloadError) -> Payload {
        isAPNS(path) ? try Payload(apnsFileData: data) : try Payload(jsonData: data)
    }
}
