import FixtureTransports
import Foundation
import NotificationModel
import ScriptHost

/// Answers for `http.post` in the shape of a fixture's `http` (SPEC section 4), as a fixture or
/// `run`/`preview --http-map FILE.json` gives them: `{URL: {status, body, delayMs}}`, each key
/// optional (`status` 200, `body` empty, `delayMs` 0); a `body` that is not a string is sent
/// back as its JSON.
public enum HTTPMap {
    /// Why an http map is refused: a one-line message naming the entry.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong, e.g. `entry for https://x/r: status must be an HTTP status 100...599`.
        public let message: String
        public var description: String { message }
    }

    /// The answers of an http map.
    public static func answers(_ value: JSONValue) throws(Problem) -> [String: PostAnswer] {
        guard case .object(let entries) = value else { throw Problem(message: "must be an object of URL: {status, body, delayMs}") }
        var answers: [String: PostAnswer] = [:]
        for (url, answer) in entries {
            answers[url] = try self.answer(answer, url: url)
        }
        return answers
    }

    /// Reads an http map file (`--http-map`).
    public static func answers(contentsOf file: URL) throws(Problem) -> [String: PostAnswer] {
        guard let data = FileManager.default.contents(atPath: file.path) else { throw Problem(message: "cannot read the file") }
        let value: JSONValue
        do { value = try JSONValue(jsonData: data) } catch { throw Problem(message: error.message) }
        return try answers(value)
    }

    private static func answer(_ value: JSONValue, url: String) throws(Problem) -> PostAnswer {
        guard case .object(let fields) = value else { throw Problem(message: "entry for \(url) must be {status, body, delayMs}") }
        var post = PostAnswer()
        for (key, field) in fields {
            switch key {
            case "status":
                guard let n = field.integerValue, (100...599).contains(n) else {
                    throw Problem(message: "entry for \(url): status must be an HTTP status 100...599")
                }
                post.status = Int(n)
            case "body":
                if let text = field.stringValue {
                    post.body = text
                } else {
                    do { post.body = try field.jsonString() } catch { throw Problem(message: "entry for \(url): body cannot be written as JSON") }
                }
            case "delayMs":
                guard let n = field.integerValue, n >= 0 else { throw Problem(message: "entry for \(url): delayMs must be an integer >= 0") }
                post.delayMs = Int(n)
            default:
                throw Problem(message: "entry for \(url) has no field '\(key)'; it takes status, body, delayMs")
            }
        }
        return post
    }
}
