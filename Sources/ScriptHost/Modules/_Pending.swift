import LuaSandbox

extension HostedSandbox {
    func installDownloads() {}
    func attach(_ binding: Binding, file: LuaValue, options: LuaValue) -> HostReturn { .error("attach: not available") }
    func installCrypto() {}
    func installHooks() {}
}
