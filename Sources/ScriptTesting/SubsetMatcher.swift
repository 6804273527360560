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
        case (.object(let e), .array(let a)) where e.count == 1 && e["contains"]?.arrayValue != nil:
            matchOrderedSubset(e["contains"]?.arrayValue ?? [], a, path: path, into: &out)
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

    /// Each expected element matches an element after the one the previous matched (the
    /// earliest such, which finds an ordered match whenever there is one).
    private static func matchOrderedSubset(_ expected: [JSONValue], _ actual: [JSONValue], path: String, into out: inout [Mismatch]) {
        var next = 0
        for (i, element) in expected.enumerated() {
            guard let found = actual[next...].indices.first(where: { mismatches(expected: element, actual: actual[$0]).isEmpty }) else {
                let after = next == 0 ? "" : " after element \(next - 1)"
                out.append(Mismatch(
                    path: "\(path).contains[\(i)]",
                    expected: "an element\(after) matching \(text(element))", actual: text(.array(actual))))
                return
            }
            next = found + 1
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
