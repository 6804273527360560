/// A place inside a JSON value, written as messages name it: `custom.u`, `buttons[0].url`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: a member of an object or an element of an array.
    public enum Component: Sendable, Hashable {
        /// The member under this key.
        case key(String)
        /// The element at this index.
        case index(Int)
    }

    /// The steps from the root.
    public var components: [Component]

    /// The root, or a path made of these steps.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// This path, one member further.
    public func appending(_ key: String) -> JSONPath {
        JSONPath(components + [.key(key)])
    }

    /// This path, one element further.
    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components + [.index(index)])
    }

    /// Keys joined by `.`, indexes in brackets; the root is the empty string.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
