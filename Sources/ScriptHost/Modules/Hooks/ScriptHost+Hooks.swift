extension ScriptHost {
    /// Lends scripts a function as `hooks.NAME(...)`, e.g. a decryption whose key must stay in
    /// the app's keychain:
    ///
    /// ```swift
    /// host.register(hook: "unwrap") { args in
    ///     guard case .string(let sealed)? = args.first else { throw HookError("unwrap takes a string") }
    ///     return [.string(try keychain.open(sealed))]
    /// }
    /// ```
    ///
    /// Arguments and results are ``HookValue``s: strings (bytes), numbers, booleans, nil and
    /// tables of them. A hook may be registered at any time: requests that start after this
    /// call see it, in every app. Registering a name again replaces the function from the next
    /// call on.
    public func register(hook name: String, _ body: @escaping Hook) {
        services.hooks.withLock { hooks in
            if hooks.updateValue(body, forKey: name) == nil { services.hookCount.add(1, ordering: .releasing) }
        }
    }
}
