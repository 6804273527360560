extension HostedSandbox {
    func installHooks() {}
}
