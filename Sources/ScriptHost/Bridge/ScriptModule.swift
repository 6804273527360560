/// A module of the script API (SPEC section 1: the `content` class, `log`, `json`, `store`,
/// `hooks`, `require`, …): one type that puts its functions and values into a sandbox through
/// the sandbox's ``ModuleHost``.
///
/// A module is made once per sandbox, with the host it registers through, and installed once,
/// in the order ``HostedSandbox`` lists the modules (the order fixes the ids of the host
/// functions). Nothing of a module is made again per request: its functions reach the request
/// being served through the host's binding.
///
/// The one requirement is a non-mutating `install()`, and the protocol is not class-bound:
/// a module whose functions keep nothing between calls (`log`, `json`, `crypto`, …) is a
/// struct holding its host, and the closures it registers capture that struct. A module with
/// state (`content`, `hooks`, `require`) is a final class: its state is read and written by
/// the functions it registered — escaping closures, which would each get a copy of a struct —
/// and by the request's phases, which hold the module itself. A module that needs another's
/// state is given that module when it is made.
///
/// A module holds its host `unowned`: the host owns the sandbox, the sandbox owns the
/// registered functions, and they hold the module.
protocol ScriptModule {
    /// Registers the module's functions and values in its host's sandbox, for every
    /// environment made from then on. Called once, when the sandbox is made.
    func install()
}
