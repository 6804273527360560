#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NotificationModel
import ScriptHost
import Synchronization

/// What `serve` says on standard error: plain lines (`--log-format text`, the default), or one
/// JSON object per event (`--log-format json`), each with an `"event"` member.
///
/// Plain text says what needs a person: the start-up line, the scripts folder's failures, the
/// stop. JSON also says every answer: its id, app, outcome, reason and time.
final class ServeLog: Sendable {
    /// The formats of `--log-format`.
    enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    let format: Format
    private let lock = Mutex(())

    init(format: Format) {
        self.format = format
    }

    /// An event: in JSON, the members in this order after `"event"`; in text, `text`, if any.
    func event(_ name: String, _ members: KeyValuePairs<String, JSONValue>, text: String?) {
        switch format {
        case .text:
            guard let text else { return }
            emit(text)
        case .json:
            var writer = JSONWriter()
            writer.beginObject()
            writer.key(literal: "event")
            writer.write(.string(name))
            for (key, value) in members {
                writer.key(key)
                writer.write(value)
            }
            writer.endObject()
            emit(bytes: writer.bytes)
        }
    }

    /// An answer written (JSON only).
    func answered(id: JSONValue, app: String, outcome: String, reason: DeliveryResult.Reason?, milliseconds: Double) {
        guard format == .json else { return }
        event("answer", [
            "id": id, "app": .string(app), "outcome": .string(outcome),
            "reason": reason.map { .string($0.kind.rawValue) } ?? .null,
            "message": reason.map { .string($0.message) } ?? .null,
            "ms": .number((milliseconds * 1000).rounded() / 1000),
        ], text: nil)
    }

    /// A line answered with an error (JSON only): its `id` and `error`, read back from the
    /// answer written.
    func invalid(answer line: [UInt8]) {
        guard format == .json else { return }
        let object = (try? JSONValue(jsonUTF8: line))?.objectValue
        event("invalid-line", ["id": object?["id"] ?? .null, "error": object?["error"] ?? .null], text: nil)
    }

    /// What the scripts folder reports.
    func script(_ event: ScriptDirectory.Event) {
        switch event {
        case .rejected(let app, let message, let keepingLastGood):
            self.event("script-rejected", ["app": .string(app), "message": .string(Self.oneLine(message)), "keepingLastGood": .bool(keepingLastGood)],
                text: keepingLastGood
                    ? "serve: \(Self.oneLine(message)) — keeping the last good version"
                    : "serve: \(Self.oneLine(message)) — no good version yet; its requests get the original content (reason load) until the file is fixed")
        case .loaded(let app, let file, let afterFailure):
            self.event("script-loaded", ["app": .string(app), "file": .string(file), "afterFailure": .bool(afterFailure)],
                text: afterFailure ? "serve: \(file) compiles again; the new version is in service" : nil)
        }
    }

    private func emit(_ line: String) {
        emit(bytes: Array(line.utf8))
    }

    private func emit(bytes: [UInt8]) {
        lock.withLock { _ in _ = AnswerOutput.writeAll(bytes + [UInt8(ascii: "\n")], to: STDERR_FILENO) }
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
