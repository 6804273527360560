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

    init(app: String, services: HostServices) {
        self.app = app
        let directory = services.configuration.stateDirectory
        self.categories = CategoryStore(app: app, directory: directory, declared: services.configuration.categories)
        self.store = KeyValueStore(app: app, directory: directory)
    }

    /// The app's sandbox pool (made on first use, since sandboxes refer back to the runtime).
    func pool(_ services: HostServices) -> SandboxPool<HostedSandbox> {
        poolBox.withLock { pool in
            if let pool { return pool }
            let made = SandboxPool<HostedSandbox>(maxIdle: 4) { [unowned self] () throws(SandboxError) in
                try HostedSandbox(app: self, services: services)
            }
            pool = made
            return made
        }
    }
}

/// An app's categories: those it declares and those scripts register.
final class CategoryStore: Sendable {
    private let registry: Mutex<CategoryRegistry>

    init(app: String, directory: URL?, declared: [NotificationCategory]) {
        registry = Mutex(CategoryRegistry(declared: declared))
    }

    /// Declares categories (never dropped).
    func declare(_ categories: [NotificationCategory]) {
        registry.withLock { r in categories.forEach { r.declare($0) } }
    }

    /// Reads the registry.
    func read<T>(_ body: (CategoryRegistry) -> T) -> T { registry.withLock { body($0) } }

    /// Registers (or replaces) a category.
    func register(_ category: NotificationCategory) {
        registry.withLock { _ = $0.register(category) }
    }
}
