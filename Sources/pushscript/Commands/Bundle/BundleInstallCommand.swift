import Foundation
import ScriptBundles
import ScriptHost

/// `pushscript bundle install FILE --state DIR --trust KEY.pub...`: what an app does with a
/// bundle it fetched.
enum BundleInstallCommand: Command {
    static let name = "bundle install"
    static let summary = "verify a bundle or revocation and install it into a state folder"
    static let description = """
        usage: pushscript bundle install FILE --state DIR --trust KEY.pub... [options]

        Verifies FILE (a bundle or a revocation) as 'bundle verify' does, then installs it into
        the state folder DIR, which 'run', 'serve' and the others read with --state DIR --trust.
        A bundle is refused when its version is not above every version installed before, when
        that version was rolled back on this device or revoked, or when it asks for more than
        the host allows (the limit and host options say what the host allows; left out, the
        defaults and no hosts). A revocation takes its version out of service: the last good
        version before it, or the baseline, serves again. Nothing is written before all is
        checked; the new state replaces the old at once. Prints one line: what was installed
        (exit 0), or 'refused: REASON: ...' and the state as it was (exit 1).
        """
    static let state = Option("--state", "DIR", help: "the state folder to install into (required)")
    static let app = Option("--app", "ID", help: "refuse bundles for any other app")
    static let options = [state, BundleOptions.trust, app, HostOptions.cpuMs, HostOptions.memoryMB, HostOptions.timeMs, HostOptions.allowHTTP, HostOptions.allowPost]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        let trust = try BundleOptions.trustedKeys(a, command: name)
        guard let dir = a.value(state) else {
            throw UsageError("pushscript bundle install: give --state DIR, the state folder to install into")
        }
        // Made by the install itself, once the bundle is verified: a refusal leaves no folder.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isFolder), !isFolder.boolValue {
            throw UsageError("pushscript bundle install: --state \(dir) is a file; give a folder")
        }
        let folder = URL(fileURLWithPath: dir, isDirectory: true)
        var limits = ScriptLimits.default
        for (option, setting) in [(HostOptions.cpuMs, LimitSetting.cpuMs), (HostOptions.memoryMB, .memoryMB), (HostOptions.timeMs, .timeMs)] {
            guard let v = a.value(option) else { continue }
            guard let n = Int64(v), limits.set(setting, to: n) else {
                throw UsageError("pushscript bundle install: \(option.name) takes \(setting.range), not '\(v)'")
            }
        }
        let (path, bytes) = try BundleOptions.bundleFile(a, command: name)
        let ceiling = HostCeiling(limits: limits, allowHTTP: Set(a.all(HostOptions.allowHTTP)), allowPost: Set(a.all(HostOptions.allowPost)))
        let installer = BundleInstaller(stateDirectory: folder, verifier: BundleVerifier(trust: trust), ceiling: ceiling, app: a.value(app))
        do {
            print(try installer.install(bytes).line)
            return .success
        } catch {
            print("\(error.description) (\(path))")
            return .failuresFound
        }
    }
}
