/// `pushscript bundle SUBCOMMAND`: signed script bundles, from the key to the device.
enum BundleCommand: Command {
    static let name = "bundle"
    static let summary = "sign, check, install and follow script bundles"
    static let description = """
        usage: pushscript bundle SUBCOMMAND [ARGUMENTS] [OPTIONS]

        Ships scripts to apps in users' hands: a bundle is one signed file (.psbundle) with an
        app's script, its modules and media. The app installs it into its state folder; the
        host serves it to the devices its rollout reaches, watches its first deliveries, and
        rolls it back when it fails more than the version before it. A signed revocation takes
        a version out of service everywhere. 'run', 'preview', 'test', 'bench' and 'serve'
        serve installed versions with --state DIR --trust KEY.pub.
        """
    static let options: [Option] = []
    static var subcommands: [any Command.Type] {
        [
            BundleKeygenCommand.self,
            BundleBuildCommand.self,
            BundleVerifyCommand.self,
            BundleInspectCommand.self,
            BundleInstallCommand.self,
            BundleRevokeCommand.self,
            BundleStatusCommand.self,
        ]
    }

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        throw UsageError("pushscript bundle: no subcommand given; run 'pushscript bundle --help' for the subcommands")
    }
}
