extension NotificationContent {
    /// Reads `sound`: a name, or an object of `name`, `critical`, `volume` with `name` a string,
    /// `critical` a boolean (or the payload's 0/1, default false), `volume` a number 0…1.
    static func sound(_ value: JSONValue?) throws(ContentFieldError) -> NotificationSound {
        func refuse(_ message: String) -> ContentFieldError {
            ContentFieldError(.invalidValue, field: ContentField.sound.rawValue, message: message)
        }
        switch value {
        case .string(let name)?:
            return .named(name)
        case .object(let members)?:
            let known = ["name", "critical", "volume"]
            for key in members.keys.sorted() where !known.contains(key) {
                throw refuse("sound has no field '\(key)'; it takes name, critical, volume")
            }
            guard let name = members["name"]?.stringValue else {
                throw refuse("sound.name must be a string")
            }
            var critical = false
            switch members["critical"] {
            case nil, .null?: break
            case .bool(let flag)?: critical = flag
            case let flag? where flag.integerValue == 0 || flag.integerValue == 1: critical = flag.integerValue == 1
            default: throw refuse("sound.critical must be a boolean")
            }
            var volume: Double?
            if let given = members["volume"], !given.isNull {
                guard let number = given.doubleValue, (0...1).contains(number) else {
                    throw refuse("sound.volume must be a number from 0 to 1")
                }
                volume = number
            }
            return .dictionary(name: name, critical: critical, volume: volume)
        default:
            throw ContentFieldError(
                .invalidValue, field: ContentField.sound.rawValue,
                message: "sound must be \(ContentField.sound.requirement)", unmetRequirement: true)
        }
    }

    /// Reads `userInfo`: an object (an empty array counts as an empty object, as an empty Lua
    /// table has no shape), at most ``maximumUserInfoDepth`` levels deep, its numbers finite.
    static func userInfo(_ value: JSONValue?) throws(ContentFieldError) -> [String: JSONValue] {
        let members: [String: JSONValue]
        switch value {
        case .object(let object)?: members = object
        case .array([])?: members = [:]
        default:
            throw ContentFieldError(
                .invalidValue, field: ContentField.userInfo.rawValue,
                message: "userInfo must be \(ContentField.userInfo.requirement)", unmetRequirement: true
            )
        }
        // The quick check builds no paths; the one that names the problem runs only when needed.
        if !fitsJSONShape(.object(members), level: 1) {
            try checkJSONShape(.object(members), path: JSONPath().appending("userInfo"), level: 1)
        }
        return members
    }

    /// Whether every number is finite and nothing nests deeper than ``maximumUserInfoDepth``.
    private static func fitsJSONShape(_ value: JSONValue, level: Int) -> Bool {
        switch value {
        case .number(let double): double.isFinite
        case .array(let elements): level <= maximumUserInfoDepth && elements.allSatisfy { fitsJSONShape($0, level: level + 1) }
        case .object(let members): level <= maximumUserInfoDepth && members.values.allSatisfy { fitsJSONShape($0, level: level + 1) }
        default: true
        }
    }

    private static func checkJSONShape(_ value: JSONValue, path: JSONPath, level: Int) throws(ContentFieldError) {
        func refuse(_ message: String) -> ContentFieldError {
            ContentFieldError(.invalidValue, field: ContentField.userInfo.rawValue, message: message)
        }
        switch value {
        case .number(let double) where !double.isFinite:
            throw refuse("\(path) must be a finite number; JSON has no \(double)")
        case .array(let elements):
            guard level <= maximumUserInfoDepth else {
                throw refuse("userInfo is nested more than \(maximumUserInfoDepth) levels deep")
            }
            for (index, element) in elements.enumerated() {
                try checkJSONShape(element, path: path.appending(index), level: level + 1)
            }
        case .object(let members):
            guard level <= maximumUserInfoDepth else {
                throw refuse("userInfo is nested more than \(maximumUserInfoDepth) levels deep")
            }
            for key in members.keys.sorted() {
                if let member = members[key] {
                    try checkJSONShape(member, path: path.appending(key), level: level + 1)
                }
            }
        default:
            break
        }
    }
}
