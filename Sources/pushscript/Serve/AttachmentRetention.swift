import Foundation
import ScriptHost
import Synchronization

/// The attachment files `serve` keeps while it owns its folder: those of the most recent
/// results that have any, at most ``maximumResults`` results and ``maximumBytes`` bytes
/// together (the newest result's files are always kept). When a result is written, the files
/// of the oldest results past either bound are removed.
final class AttachmentRetention: Sendable {
    /// At most this many results keep their files.
    static let maximumResults = 64
    /// Results keep at most this many bytes of files together (256 MiB).
    static let maximumBytes = 256 << 20

    private struct Kept {
        let result: DeliveryResult
        let bytes: Int
    }

    private struct State {
        var kept: [Kept] = []
        var bytes = 0
    }

    private let state = Mutex(State())
    private let maximumResults: Int
    private let maximumBytes: Int

    /// A retention with the given bounds.
    init(maximumResults: Int = AttachmentRetention.maximumResults, maximumBytes: Int = AttachmentRetention.maximumBytes) {
        self.maximumResults = maximumResults
        self.maximumBytes = maximumBytes
    }

    /// Keeps the files of `result` (written just now) and removes the oldest past the bounds.
    func keep(_ result: DeliveryResult) {
        guard !result.content.attachments.isEmpty else { return }
        let removed: [Kept] = state.withLock { s in
            s.kept.append(Kept(result: result, bytes: result.attachmentBytes))
            s.bytes += result.attachmentBytes
            var removed: [Kept] = []
            while s.kept.count > maximumResults || (s.bytes > maximumBytes && s.kept.count > 1) {
                let oldest = s.kept.removeFirst()
                s.bytes -= oldest.bytes
                removed.append(oldest)
            }
            return removed
        }
        for old in removed { old.result.removeAttachmentFiles() }
    }
}
