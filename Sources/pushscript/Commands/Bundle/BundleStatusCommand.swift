import Foundation
import ScriptBundles

/// `pushscript bundle status --state DIR [--app ID]`: what a device serves and why.
enum BundleStatusCommand: Command {
    static let name = "bundle status"
    static let summary = "print what a state folder serves per app, and why, as JSON"
    static let description = """
        usage: pushscript bundle status --state DIR [--app ID]

        Prints, as JSON, for each app with installed bundles or counted deliveries in DIR: the
        version in service ("active", null for the baseline), the baseline's SHA-256, the
        candidate on probation, the last good version, each version rolled back or revoked
        with its reason, and per version (and the baseline) the deliveries counted: how many,
        how many completed, and the fallbacks by reason kind.
        """
    static let state = Option("--state", "DIR", help: "the state folder (required)")
    static let app = Option("--app", "ID", help: "only this app")
    static let options = [state, app]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        if let extra = a.positionals.first {
            throw UsageError("pushscript bundle status: unexpected argument '\(extra)'; give the folder with --state DIR")
        }
        guard let dir = a.value(state) else {
            throw UsageError("pushscript bundle status: give --state DIR, the state folder")
        }
        let folder = try FolderArgument.existing(dir, state, command: name, give: "the state folder bundles were installed into")
        do {
            let json = try BundleStatus.json(stateDirectory: folder, app: a.value(app))
            print(try json.jsonString(prettyPrinted: true))
            return .success
        } catch let refusal as BundleRefusal {
            printError("pushscript bundle status: \(refusal.message)")
            return .usageError
        }
    }
}
