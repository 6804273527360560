/// The types APNs documents for the known `aps` keys. Unknown keys are kept, never refused.
enum APSValidator {
    /// What a known key takes.
    enum Rule {
        case string
        case integer
        case nonNegativeInteger
        case unitNumber
        case dictionary
        case stringArray
        case criticalFlag
        case interruptionLevel
        case alert
        case sound

        /// The end of the message, after `<key> must be `.
        var requirement: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .nonNegativeInteger: "an integer >= 0"
            case .unitNumber: "a number from 0 to 1"
            case .dictionary: "a dictionary"
            case .stringArray: "an array of strings"
            case .criticalFlag: "0 or 1"
            case .interruptionLevel:
                "one of " + InterruptionLevel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            case .alert: "a string or a dictionary"
            case .sound: "a string or a dictionary"
            }
        }
    }

    /// The rule of a known `aps` key (a switch, which tells a key without hashing it).
    static func apsRule(_ key: String) -> Rule? {
        switch key {
        case "alert": .alert
        case "badge": .nonNegativeInteger
        case "sound": .sound
        case "thread-id": .string
        case "category": .string
        case "target-content-id": .string
        case "filter-criteria": .string
        case "content-available": .integer
        case "mutable-content": .integer
        case "interruption-level": .interruptionLevel
        case "relevance-score": .unitNumber
        case "timestamp": .integer
        case "stale-date": .integer
        case "dismissal-date": .integer
        case "event": .string
        case "attributes-type": .string
        case "content-state": .dictionary
        case "attributes": .dictionary
        default: nil
        }
    }

    /// The rule of a known `aps.alert` key.
    static func alertRule(_ key: String) -> Rule? {
        switch key {
        case "title": .string
        case "subtitle": .string
        case "body": .string
        case "launch-image": .string
        case "title-loc-key": .string
        case "subtitle-loc-key": .string
        case "loc-key": .string
        case "title-loc-args": .stringArray
        case "subtitle-loc-args": .stringArray
        case "loc-args": .stringArray
        case "summary-arg": .string
        case "summary-arg-count": .integer
        default: nil
        }
    }

    /// The rule of a known `aps.sound` key.
    static func soundRule(_ key: String) -> Rule? {
        switch key {
        case "critical": .criticalFlag
        case "name": .string
        case "volume": .unitNumber
        default: nil
        }
    }

    /// Checks `aps` and its known keys, in the order of their names.
    static func validate(_ payload: [String: JSONValue]) throws(PayloadError) {
        guard let aps = payload["aps"] else {
            throw PayloadError(.missingAPS, "aps is missing; a payload needs an aps dictionary")
        }
        guard case .object(let members) = aps else {
            throw PayloadError(.missingAPS, "aps must be a dictionary")
        }
        // Most payloads are valid: a pass in any order says so; only a payload with a problem
        // is walked in key order, so that the problem named is always the same one.
        if passes(members, rules: apsRule) { return }
        try check(members, rules: apsRule, path: "aps")
    }

    /// Whether every member with a rule keeps it (nested alert and sound dictionaries too).
    private static func passes(_ members: [String: JSONValue], rules: (String) -> Rule?) -> Bool {
        for (key, value) in members {
            guard let rule = rules(key) else { continue }
            switch rule {
            case .alert:
                if case .object(let nested) = value {
                    guard passes(nested, rules: alertRule) else { return false }
                } else if value.stringValue == nil {
                    return false
                }
            case .sound:
                if case .object(let nested) = value {
                    guard nested["name"] != nil, passes(nested, rules: soundRule) else { return false }
                } else if value.stringValue == nil {
                    return false
                }
            default:
                guard (try? check(value, rule: rule, path: "", key: key)) != nil else { return false }
            }
        }
        return true
    }

    /// Checks the known keys of `members` in the order of their names; a key's path
    /// (`aps.alert.title`) is written only for a message or a nested dictionary.
    private static func check(_ members: [String: JSONValue], rules: (String) -> Rule?, path: @autoclosure () -> String) throws(PayloadError) {
        var known: [(key: String, rule: Rule, value: JSONValue)] = []
        known.reserveCapacity(members.count)
        for (key, value) in members {
            if let rule = rules(key) { known.append((key, rule, value)) }
        }
        if known.count > 1 { known.sort { $0.key < $1.key } }
        for member in known {
            try check(member.value, rule: member.rule, path: path(), key: member.key)
        }
    }

    private static func check(_ value: JSONValue, rule: Rule, path parent: @autoclosure () -> String, key: String) throws(PayloadError) {
        let valid: Bool
        switch rule {
        case .string:
            valid = value.stringValue != nil
        case .integer:
            valid = value.integerValue != nil
        case .nonNegativeInteger:
            valid = (value.integerValue ?? -1) >= 0
        case .unitNumber:
            valid = value.doubleValue.map { (0...1).contains($0) } ?? false
        case .dictionary:
            valid = value.objectValue != nil
        case .stringArray:
            valid = value.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
        case .criticalFlag:
            valid = value.integerValue == 0 || value.integerValue == 1
        case .interruptionLevel:
            valid = value.stringValue.flatMap(InterruptionLevel.init(rawValue:)) != nil
        case .alert:
            if case .object(let members) = value {
                try check(members, rules: alertRule, path: "\(parent()).\(key)")
            }
            valid = value.stringValue != nil || value.objectValue != nil
        case .sound:
            if case .object(let members) = value {
                guard members["name"] != nil else {
                    throw PayloadError(.invalidValue, "\(parent()).\(key).name must be a string")
                }
                try check(members, rules: soundRule, path: "\(parent()).\(key)")
            }
            valid = value.stringValue != nil || value.objectValue != nil
        }
        guard valid else {
            throw PayloadError(.invalidValue, "\(parent()).\(key) must be \(rule.requirement)")
        }
    }
}
