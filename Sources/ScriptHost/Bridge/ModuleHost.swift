import LuaSandbox

/// What the script API's modules register through: the sandbox of one app, the app's state,
/// the host's services, and the request being served.
///
/// Confined like its sandbox: only the thread running a job touches ``binding``.
final class ModuleHost {
    /// The sandbox the modules' functions and values are registered in.
    let sandbox: LuaSandbox
    /// The app the sandbox runs scripts of: its store and categories.
    let app: AppRuntime
    /// What every sandbox of the host shares: the configuration, the executor, the hooks.
    let services: HostServices
    /// The request being served; set by each phase before it runs script code.
    var binding: Binding?

    init(sandbox: LuaSandbox, app: AppRuntime, services: HostServices) {
        self.sandbox = sandbox
        self.app = app
        self.services = services
    }

    /// The request being served, if its phase may still write.
    var active: Binding? {
        guard let binding, binding.run.isActive(binding.phase) else { return nil }
        return binding
    }

    /// Registers a function of a module whose calls need the current request. When the request
    /// is over for this phase (the host gave up on it), the call stops the script.
    func function(
        _ name: String, in module: String?, arguments: HostArguments = .raw,
        _ body: @escaping (Binding, HostCall) -> HostReturn
    ) {
        sandbox.register(name, in: module, arguments: arguments) { [unowned self] call in
            guard let binding = active else { return .kill(.time) }
            return body(binding, call)
        }
    }
}
