import Foundation
import ScriptBundles
import ScriptHost

/// `--state DIR --trust KEY.pub...`: serving installed bundle versions.
extension HostOptions {
    /// The installed scripts of `--state` and `--trust` over `baseline`; nil without `--trust`.
    /// `--trust` without `--state` is a usage error.
    static func installedScripts(
        _ a: ParsedArguments, command: String, baseline: InstalledScripts.Baseline, recording: Bool = true,
        report: @escaping @Sendable (InstalledScripts.Event) -> Void = { _ in }
    ) throws(UsageError) -> InstalledScripts? {
        let files = a.all(trust)
        guard !files.isEmpty else { return nil }
        guard let dir = a.value(state) else {
            throw UsageError("pushscript \(command): --trust needs --state DIR, the state folder bundles are installed into")
        }
        let keys: TrustedKeys
        do { keys = try TrustedKeys(files: files.map { URL(fileURLWithPath: $0) }) } catch {
            throw UsageError("pushscript \(command): --trust \(error.message)")
        }
        let folder = try FolderArgument.made(dir, state, command: command)
        return InstalledScripts(stateDirectory: folder, trust: keys, baseline: baseline, recording: recording, report: report)
    }

    /// The line on standard error for what installed scripts report.
    static func message(for event: InstalledScripts.Event, command: String) -> String {
        switch event {
        case .rolledBack(let app, let version, let reason):
            return "\(command): \(app) version \(version) was rolled back: \(reason)"
        case .promoted(let app, let version):
            return "\(command): \(app) version \(version) passed probation and is the last good version"
        case .unusable(let app, let version, let message):
            return "\(command): \(app) version \(version) is not served: \(message)"
        case .unreadableState(_, let message):
            return "\(command): \(message)"
        case .countsNotWritten(let app, let message):
            return "\(command): the deliveries of \(app) could not be counted: \(message)"
        }
    }
}
