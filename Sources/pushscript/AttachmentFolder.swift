import Dispatch
import Foundation
import ScriptHost
import Synchronization

/// Where `run`, `preview` and `serve` put delivered attachment files (`--attachments DIR`).
///
/// Given `--attachments DIR`, the files go into DIR (one folder per request) and are the
/// caller's: no command removes them. Without it a command makes a folder of its own in the
/// temporary directory and removes it when it ends — at exit, at the end of `serve`'s input,
/// and on SIGINT or SIGTERM — so that no command leaves files behind.
final class AttachmentFolder: Sendable {
    /// The option.
    static let option = Option("--attachments", "DIR", help: "keep delivered attachment files in DIR (default: removed at exit)")

    /// The folder.
    let url: URL
    /// Whether the command made the folder and removes it when it ends.
    let isOwned: Bool
    private let signalSources: Mutex<[any DispatchSourceSignal]>

    /// The folder `--attachments` names, or one of the command's own named `pushscript-COMMAND-…`.
    /// `removedOnSignals`: SIGINT and SIGTERM remove the folder and exit (a command that
    /// handles its own signals, as `serve` does, says false and calls ``remove()``).
    init(_ a: ParsedArguments, command: String, removedOnSignals: Bool = true) throws(UsageError) {
        if let path = a.value(Self.option) {
            url = try FolderArgument.made(path, Self.option, command: command).standardizedFileURL
            isOwned = false
            signalSources = Mutex([])
        } else {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-\(command)-\(UUID().uuidString)", isDirectory: true)
            isOwned = true
            signalSources = Mutex(removedOnSignals ? Self.removeOnSignals(url) : [])
        }
    }

    /// Removes the folder and everything in it, when the command owns it.
    func remove() {
        guard isOwned else { return }
        try? FileManager.default.removeItem(at: url)
    }

    /// On SIGINT or SIGTERM: removes the folder, then exits with 128 + the signal's number.
    private static func removeOnSignals(_ folder: URL) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                try? FileManager.default.removeItem(at: folder)
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}

extension AttachmentFolder {
    /// The line for standard error about `result`'s attachment files, when it has any: where
    /// they are kept, or that they are removed at exit.
    func note(for result: DeliveryResult, command: String) -> String? {
        let files = result.attachmentFiles
        guard !files.isEmpty else { return nil }
        if isOwned {
            return "\(command): \(files.count == 1 ? "the attachment file is" : "the \(files.count) attachment files are") removed at exit; give --attachments DIR to keep \(files.count == 1 ? "it" : "them")"
        }
        return "\(command): attachment files kept in \(files[0].deletingLastPathComponent().path)"
    }
}
