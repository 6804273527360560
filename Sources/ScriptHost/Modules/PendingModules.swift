extension HostedSandbox {
    func installCrypto() {}
    func installHooks() {}
}
