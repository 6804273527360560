import Foundation

/// Checks payloads against SPEC §3 as `pushscript lint` reports them.
public enum PayloadLinter: Sendable {
    /// The findings for one payload file, errors first: a payload APNs or iOS refuses (each
    /// rule it breaks), a missing `"mutable-content": 1`, then a warning for every string
    /// value anywhere in it that is a plain `http://` URL, in the order of their paths.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - isAPNS: Whether the file is an `.apns` file, whose `Simulator Target Bundle` key
    ///     is not part of the payload.
    public static func lint(data: Data, isAPNS: Bool) -> [LintFinding] {
        var object: [String: JSONValue]
        do {
            object = try Payload.object(from: data)
        } catch {
            return [LintFinding(.error, error.message)]
        }
        var findings: [LintFinding] = []
        var sentSize = Payload.sentSize(ofText: data)
        if isAPNS, let target = object.removeValue(forKey: Payload.simulatorTargetBundleKey) {
            sentSize = Payload.sentSize(ofAPNSText: data, target: target)
            if target.stringValue == nil {
                findings.append(LintFinding(.error, "\(Payload.simulatorTargetBundleKey) must be a string (the app's bundle identifier)"))
            }
        }
        findings += errors(in: object, sentSize: sentSize)
        findings += plainHTTPWarnings(in: .object(object), path: JSONPath())
        return findings
    }

    /// The size, `aps` and `mutable-content` rules, each reported on its own.
    static func errors(in object: [String: JSONValue], sentSize: Int? = nil) -> [LintFinding] {
        var findings: [LintFinding] = []
        do {
            _ = try Payload(userInfo: object, appBundleID: nil, sentSize: sentSize)
        } catch where error.kind == .tooLarge || error.kind == .invalidJSON {
            findings.append(LintFinding(.error, error.message))
        } catch {
            // Reported below with the aps rules.
        }
        do {
            try APSValidator.validate(object)
            if !isMutableContent(object) {
                findings.append(LintFinding(.error, Payload.missingMutableContentMessage))
            }
        } catch {
            findings.append(LintFinding(.error, error.message))
            if error.kind == .invalidValue, !isMutableContent(object) {
                findings.append(LintFinding(.error, Payload.missingMutableContentMessage))
            }
        }
        return findings
    }

    static func plainHTTPWarnings(in value: JSONValue, path: JSONPath) -> [LintFinding] {
        switch value {
        case .string(let string) where string.lowercased().hasPrefix("http://"):
            return [LintFinding(.warning, "\(path) is a plain http URL; iOS refuses it without an App Transport Security exception")]
        case .array(let elements):
            return elements.enumerated().flatMap { plainHTTPWarnings(in: $1, path: path.appending($0)) }
        case .object(let members):
            return members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.flatMap { key in
                members[key].map { plainHTTPWarnings(in: $0, path: path.appending(key)) } ?? []
            }
        default:
            return []
        }
    }
}
