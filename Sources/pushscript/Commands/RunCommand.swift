import Foundation
import ScriptBundles
import ScriptHost

/// `pushscript run SCRIPT PAYLOAD`: delivers one payload and prints the result JSON.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "deliver one payload through a script, print the result JSON"
    static let description = """
        usage: pushscript run SCRIPT PAYLOAD [options]

        Runs SCRIPT's didReceive on PAYLOAD (.json, or .apns with its Simulator Target Bundle)
        and prints the delivered result as JSON. Exit status: 0 completed, 3 fallback,
        2 usage error or unreadable/invalid input. Attachment files are removed at exit
        unless --attachments DIR keeps them (standard error says which).
        """
    static let options = HostOptions.options() + RequestOptions.options + [AttachmentFolder.option]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        let input = try DeliveryInput(a, command: name)
        let attachments = try AttachmentFolder(a, command: name)
        defer { attachments.remove() }
        var configuration = input.configuration
        configuration.attachmentDirectory = attachments.url
        let host = input.host(configuration)
        let installed = try HostOptions.installedScripts(a, command: name, baseline: .script(input.script)) { event in
            printError(HostOptions.message(for: event, command: "run"))
        }
        let result = if let installed {
            await host.deliver(input.request, from: installed)
        } else {
            await host.deliver(input.request, script: .script(input.script))
        }
        installed?.flush()
        standardOutput(result.prettyJSONBytes())
        if let note = attachments.note(for: result, command: name) { printError(note) }
        return result.outcome == .completed ? .success : .fallbackDelivered
    }
}
