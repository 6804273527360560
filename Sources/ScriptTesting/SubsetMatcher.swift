import NotificationModel

/// One place where a result differs from what a fixture expects.
public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    /// Where, as a path into the result (`content.attachments[0].type`).
    public let path: String
    /// What the fixture expects there (JSON).
    public let expected: String
    /// What the result has there (JSON, or `(missing)`).
    public let actual: String

    /// `path: expected X, actual Y`.
    public var description: String { "\(path.isEmpty ? "(result)" : path): expected \(expected), actual \(actual)" }
}

/// SPEC section 4's matching: objects match when every key given matches; arrays when they
/// have the same length and each element matches; scalars when equal, except strings under a
/// `message` or `error` key, which match when the actual text contains the expected one.
///
/// One addition: an expected object that is exactly `{"contains": [e1, e2, …]}`, where the
/// result has an array, matches an ordered subset: each `e` matches some element, in that
/// order, with any other elements before, between and after them (`"logs": {"contains":
/// [{"message": "no picture"}]}`). `{"contains": []}` matches any array.
///
/// Arrays whose order carries no meaning match in any order: the `options` of a category and
/// of its actions in the result's `categories` (``unorderedPaths``). There, an expected array
/// matches when each of its elements matches a different element of the actual one (same
/// length), and `{"contains": […]}` when each listed element matches a different element.
public enum SubsetMatcher {
    /// The mismatches of `actual` against `expected`; empty when it matches.
    public static func mismatches(expected: JSONValue, actual: JSONValue?) -> [Mismatch] {
        var out: [Mismatch] = []
        match(expected, actual, path: "", key: nil, into: &out)
        return out
    }

    private static func match(_ expected: JSONValue, _ actual: JSONValue?, path: String, key: String?, into out: inout [Mismatch]) {
        guard let actual else {
            out.append(Mismatch(path: path, expected: text(expected), actual: "(missing)"))
            return
        }
        switch (expected, actual) {
        case (.object(let e), .array(let a)) where e.count == 1 && e["contains"]?.arrayValue != nil && isUnordered(path):
            matchUnordered(e["contains"]?.arrayValue ?? [], a, path: path, whole: false, into: &out)
        case (.object(let e), .array(let a)) where e.count == 1 && e["contains"]?.arrayValue != nil:
            matchOrderedSubset(e["contains"]?.arrayValue ?? [], a, path: path, into: &out)
        case (.array(let e), .array(let a)) where isUnordered(path):
            matchUnordered(e, a, path: path, whole: true, into: &out)
        case (.object(let e), .object(let a)):
            for k in e.keys.sorted() {
                match(e[k]!, a[k], path: path.isEmpty ? k : "\(path).\(k)", key: k, into: &out)
            }
        case (.array(let e), .array(let a)):
            guard e.count == a.count else {
                out.append(Mismatch(path: path, expected: "\(e.count) elements \(text(expected))", actual: "\(a.count) elements \(text(actual))"))
                return
            }
            for (i, element) in e.enumerated() {
                match(element, a[i], path: "\(path)[\(i)]", key: nil, into: &out)
            }
        case (.string(let e), .string(let a)) where key == "message" || key == "error":
            if !a.contains(e) { out.append(Mismatch(path: path, expected: "text containing \(text(expected))", actual: text(actual))) }
        default:
            if !sameScalar(expected, actual) {
                out.append(Mismatch(path: path, expected: text(expected), actual: text(actual)))
            }
        }
    }

    /// Whether `actual`, found at `path`, matches `expected`.
    private static func fits(_ expected: JSONValue, _ actual: JSONValue, path: String) -> Bool {
        var found: [Mismatch] = []
        match(expected, actual, path: path, key: nil, into: &found)
        return found.isEmpty
    }

    /// Each expected element matches an element after the one the previous matched (the
    /// earliest such, which finds an ordered match whenever there is one).
    private static func matchOrderedSubset(_ expected: [JSONValue], _ actual: [JSONValue], path: String, into out: inout [Mismatch]) {
        var next = 0
        for (i, element) in expected.enumerated() {
            guard let found = actual[next...].indices.first(where: { fits(element, actual[$0], path: "\(path)[\($0)]") }) else {
                let after = next == 0 ? "" : " after element \(next - 1)"
                out.append(Mismatch(
                    path: "\(path).contains[\(i)]",
                    expected: "an element\(after) matching \(text(element))", actual: text(.array(actual))))
                return
            }
            next = found + 1
        }
    }

    /// The arrays matched in any order, as paths of the result with `*` for any index: a
    /// category's `options` and an action's `options` (sets of option names on iOS).
    public static let unorderedPaths = ["categories[*].options", "categories[*].actions[*].options"]

    /// Whether the array at `path` (`categories[0].actions[1].options`) is one of ``unorderedPaths``.
    static func isUnordered(_ path: String) -> Bool {
        var pattern = ""
        var inIndex = false
        for character in path {
            if character == "[" {
                inIndex = true
                pattern.append("[*]")
            } else if character == "]" {
                inIndex = false
            } else if !inIndex {
                pattern.append(character)
            }
        }
        return unorderedPaths.contains(pattern)
    }

    /// Each expected element matches a different actual element (every one of them when
    /// `whole`, which also asks for the same length); found by trying the assignments in
    /// turn, as these arrays are short.
    private static func matchUnordered(_ expected: [JSONValue], _ actual: [JSONValue], path: String, whole: Bool, into out: inout [Mismatch]) {
        if whole, expected.count != actual.count {
            out.append(Mismatch(
                path: path, expected: "\(expected.count) elements in any order \(text(.array(expected)))",
                actual: "\(actual.count) elements \(text(.array(actual)))"))
            return
        }
        let fits = expected.map { e in actual.indices.filter { self.fits(e, actual[$0], path: "\(path)[\($0)]") } }
        var used = Set<Int>()
        func assign(_ i: Int) -> Bool {
            guard i < fits.count else { return true }
            for j in fits[i] where !used.contains(j) {
                used.insert(j)
                if assign(i + 1) { return true }
                used.remove(j)
            }
            return false
        }
        if !assign(0) {
            let what = whole ? "the same elements in any order" : "elements matching, in any order,"
            out.append(Mismatch(path: whole ? path : "\(path).contains", expected: "\(what) \(text(.array(expected)))", actual: text(.array(actual))))
        }
    }

    private static func sameScalar(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object, _), (.array, _): return false
        default: return a == b
        }
    }

    private static func text(_ value: JSONValue) -> String {
        (try? value.jsonString()) ?? "?"
    }
}
