/// The Lua modules shipped with PushScript. Each is a `.lua` file in this folder, embedded in
/// the binary at build time (`resources: [.embedInCode(...)]` in Package.swift, which SwiftPM
/// turns into `PackageResources.<file name>` bytes): a copied `pushscript` executable, or an
/// app that embeds the host, finds them with no file beside it. Scripts load them with
/// `require "pushscript.NAME"`.
public enum BundledModules {
    /// Module name → Lua source.
    static let sources: [String: String] = [
        "pushscript.providers": String(decoding: PackageResources.providers_lua, as: UTF8.self),
    ]

    /// The names of the bundled modules, sorted.
    public static var names: [String] { sources.keys.sorted() }

    /// The source of a bundled module, or nil.
    public static func source(of name: String) -> String? { sources[name] }
}
