import Foundation
import ScriptBundles
import ScriptHost
import ScriptTesting

/// `pushscript preview SCRIPT PAYLOAD --out FILE.html`: delivers one payload as `run` does and
/// draws the delivered notification as iOS shows it.
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "draw the delivered notification as one HTML file"
    static let description = """
        usage: pushscript preview SCRIPT PAYLOAD --out FILE.html [options]

        Runs SCRIPT's didReceive on PAYLOAD as 'pushscript run' does and writes one
        self-contained HTML file (style and images inline, nothing loaded from the network)
        that draws the delivered notification: the banner, the expanded view with its image
        or media and the category's buttons, then the outcome, the reason and the log.
        scripts/preview-screenshot turns the file into a PNG.
        Exit status: 0 completed, 3 fallback, 2 usage error, unreadable input or an --out
        file that cannot be written.
        """
    static let out = Option("--out", "FILE.html", help: "where to write the page (required)")
    static let options = [out] + HostOptions.options() + RequestOptions.options + [AttachmentFolder.option]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        let input = try DeliveryInput(a, command: name)
        guard let out = a.value(out), !out.isEmpty else {
            throw UsageError("pushscript preview: give --out FILE.html, the page to write")
        }
        let (script, request) = (input.script, input.request)
        var configuration = input.configuration
        // The attachments are inlined into the page; without --attachments their files go
        // once it is written.
        let attachments = try AttachmentFolder(a, command: name)
        defer { attachments.remove() }
        configuration.attachmentDirectory = attachments.url

        let host = input.host(configuration)
        let installed = try HostOptions.installedScripts(a, command: name, baseline: .script(script)) { event in
            printError(HostOptions.message(for: event, command: "preview"))
        }
        let result = if let installed {
            await host.deliver(request, from: installed)
        } else {
            await host.deliver(request, script: .script(script))
        }
        installed?.flush()
        let preview = NotificationPreview(
            result: result, app: request.resolvedApp, categories: host.categories(app: request.resolvedApp), scriptName: script.name)
        do {
            try Data(preview.html().utf8).write(to: URL(fileURLWithPath: out))
        } catch {
            printError("pushscript preview: cannot write \(out); check that its folder exists and is writable")
            return .usageError
        }
        print("wrote \(out) (\(result.outcome.rawValue)\(result.suppressed ? ", suppressed" : ""))")
        if let note = attachments.note(for: result, command: name) { printError(note) }
        return result.outcome == .completed ? .success : .fallbackDelivered
    }
}
