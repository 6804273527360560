import Foundation
import ScriptHost
import ScriptTesting

/// The options of one request that `run` and `preview` take besides the host options: what a
/// fixture's `identifier` and `http` say (SPEC section 6).
enum RequestOptions {
    static let identifier = Option("--identifier", "ID", help: "the request's apns-id, request.identifier (default: a new UUID)")
    static let httpMap = Option(
        "--http-map", "FILE.json", repeatable: true,
        help: "answer http.post from FILE, a fixture's \"http\" object (URL: {status, body, delayMs})")

    /// The options in the order `--help` lists them.
    static let options = [identifier, httpMap]

    /// Sets the request's identifier, and its post answers from the options (`--http-map` files
    /// in order, a later answer for a URL replacing an earlier one).
    static func apply(_ a: ParsedArguments, command: String, to request: inout NotificationRequest, answers: inout FixtureAnswers) throws(UsageError) {
        if let id = a.value(identifier) {
            guard !id.isEmpty else { throw UsageError("pushscript \(command): --identifier takes the request's apns-id, not an empty string") }
            request.identifier = id
        }
        for path in a.all(httpMap) {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw UsageError("pushscript \(command): --http-map \(path): cannot read the file; check the path")
            }
            do { answers.http.merge(try HTTPMap.answers(contentsOf: URL(fileURLWithPath: path))) { $1 } } catch {
                throw UsageError("pushscript \(command): --http-map \(path): \(error.message); give a JSON object as a fixture's \"http\"")
            }
        }
    }
}
