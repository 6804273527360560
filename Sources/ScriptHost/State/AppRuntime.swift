import Foundation
import LuaSandbox
import NotificationModel
import Synchronization

/// What one app keeps across requests: its idle sandboxes, its categories and its store.
final class AppRuntime: Sendable {
    /// The app's bundle identifier (`""` when requests name none).
    let app: String
    let categories: CategoryStore
    let store: KeyValueStore
    private let poolBox = Mutex<SandboxPool<HostedSandbox>?>(nil)
    /// When a request last asked for the app's sandboxes (``Deadline/now()``, in nanoseconds).
    private let lastUsed = Atomic<Int64>(0)

    init(app: String, services: HostServices) {
        self.app = app
        let directory = services.configuration.stateDirectory
        self.categories = CategoryStore(app: app, directory: directory, declared: services.configuration.categories)
        self.store = KeyValueStore(app: app, directory: directory)
    }

    /// The app's sandbox pool (made on first use, since sandboxes refer back to the runtime).
    func pool(_ services: HostServices) -> SandboxPool<HostedSandbox> {
        lastUsed.store(Deadline.now().nanoseconds, ordering: .relaxed)
        return poolBox.withLock { pool in
            if let pool { return pool }
            let made = SandboxPool<HostedSandbox>(maxIdle: 4) { [unowned self] () throws(SandboxError) in
                try HostedSandbox(app: self, services: services)
            }
            pool = made
            return made
        }
    }
}

extension AppRuntime {
    /// Closes the app's idle Lua states when no request has asked for them since `cutoff`
    /// (in ``Deadline/now()`` nanoseconds); returns how many it let go.
    func releaseIdleStates(unusedSince cutoff: Int64) -> Int {
        guard lastUsed.load(ordering: .relaxed) < cutoff else { return 0 }
        return poolBox.withLock { $0 }?.removeIdle() ?? 0
    }
}
