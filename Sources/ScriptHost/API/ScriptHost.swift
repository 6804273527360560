import Foundation
import LuaSandbox
import MediaDownloader
import NotificationModel
import Synchronization

/// One host serving many apps, one script per app: it turns a payload into content, runs the
/// app's script under its limits, and always delivers something, exactly once.
///
/// Each app keeps Lua states that are reused across its requests (each request still gets a
/// fresh global environment), its registered categories and its store. A state that hit a
/// limit, or that a deadline abandoned, is thrown away.
public final class ScriptHost: Sendable {
    /// How the host runs scripts.
    public var configuration: HostConfiguration { services.configuration }

    let services: HostServices
    let apps = Mutex<[String: AppRuntime]>([:])

    /// A host.
    public convenience init(configuration: HostConfiguration = HostConfiguration()) {
        self.init(configuration: configuration, executor: SandboxExecutor(), answers: nil, network: nil)
    }

    /// A host whose scripts run on the Lua threads of `executor`; `answers` answer the
    /// downloads and posts of all its requests ahead of the network (`--media`), and `network`
    /// is the network in place of the platform's (a test's server on 127.0.0.1).
    package init(
        configuration: HostConfiguration, executor: SandboxExecutor = SandboxExecutor(), answers: RequestAnswers? = nil,
        network: (any Transport)? = nil
    ) {
        services = HostServices(configuration: configuration, executor: executor, answers: answers, network: network)
    }

    /// The executor for a task that delivers one request after another (a server's loop): a
    /// task that prefers it (`withTaskExecutorPreference(host.deliveryExecutor) { ... }`) goes
    /// on after each delivery on the thread that ran the script, and hands that thread its next
    /// request, so that neither hand-off wakes another thread. Deadlines and limits hold as
    /// for any task.
    public var deliveryExecutor: any TaskExecutor { services.executor.pool }

    /// The runtime of an app (made on first use).
    func runtime(for app: String?) -> AppRuntime {
        let key = app ?? ""
        return apps.withLock { apps in
            if let runtime = apps[key] { return runtime }
            let runtime = AppRuntime(app: key, services: services)
            apps[key] = runtime
            return runtime
        }
    }
}
