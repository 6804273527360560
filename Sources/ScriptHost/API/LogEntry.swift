import NotificationModel

/// One entry of a request's log.
public struct LogEntry: Sendable, Hashable, JSONWritable {
    /// How important it is.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        /// Details.
        case debug
        /// Information (also `print`).
        case info
        /// Something worth a look.
        case warn
        /// Something went wrong.
        case error
    }

    /// The level.
    public var level: Level
    /// The text.
    public var message: String
    /// `"host"` for what the host itself logged, nil for the script's entries.
    public var source: String?

    /// An entry.
    public init(level: Level, message: String, source: String? = nil) {
        self.level = level
        self.message = message
        self.source = source
    }

    /// Writes the entry as the result holds it: `{level, message, source}`, `source` only when
    /// set.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        sink.key(literal: "level")
        sink.write(string: level.rawValue)
        sink.key(literal: "message")
        sink.write(string: message)
        if let source {
            sink.key(literal: "source")
            sink.write(string: source)
        }
        sink.endObject()
    }
}

/// A request's log, bounded: at most 200 entries and 64 KiB of text; past that one host
/// warning says how much was dropped.
struct RequestLog: Sendable {
    static let maxEntries = 200
    static let maxBytes = 64 * 1024

    private(set) var entries: [LogEntry] = []
    private var bytes = 0
    private var dropped = 0

    /// Adds an entry unless the log is full.
    mutating func add(_ entry: LogEntry) {
        let size = entry.message.utf8.count
        if entries.count >= Self.maxEntries || bytes + size > Self.maxBytes {
            dropped += 1
            return
        }
        entries.append(entry)
        bytes += size
    }

    /// The entries, with the warning about dropped ones at the end.
    var final: [LogEntry] {
        guard dropped > 0 else { return entries }
        return entries + [LogEntry(
            level: .warn, message: "\(dropped) log entries dropped: a request keeps at most \(Self.maxEntries) entries and \(Self.maxBytes / 1024) KiB of log text",
            source: "host")]
    }
}
