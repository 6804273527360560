import Foundation
import LuaSandbox
import Synchronization

/// What every sandbox of a host shares: the configuration, the executor, the hooks.
final class HostServices: Sendable {
    let configuration: HostConfiguration
    let executor: SandboxExecutor
    let hooks = Mutex<[String: Hook]>([:])

    init(configuration: HostConfiguration, executor: SandboxExecutor) {
        self.configuration = configuration
        self.executor = executor
    }
}
