import Foundation
import ScriptHost

/// The modules a script requires by a literal name (`require "x"`, `require 'x'`,
/// `require("x")`), found from its tokens; a name built at run time cannot be followed.
enum RequireScanner {
    /// A `require` of a literal name.
    struct Use: Sendable, Hashable {
        let name: String
        let line: Int
    }

    /// The literal `require`s of `source`, in order; none when it cannot be read as Lua.
    static func uses(in source: [UInt8]) -> [Use] {
        guard let tokens = try? LuaLexer.tokens(source) else { return [] }
        var uses: [Use] = []
        for (index, token) in tokens.enumerated() where token.kind == .name && token.text == "require" {
            // not a field (`x.require`) or a method (`x:require`)
            if index > 0, tokens[index - 1].kind == .symbol, [".", ":"].contains(tokens[index - 1].text) { continue }
            var next = index + 1
            if next < tokens.count, tokens[next].kind == .symbol, tokens[next].text == "(" { next += 1 }
            guard next < tokens.count, tokens[next].kind == .string, !tokens[next].text.isEmpty else { continue }
            uses.append(Use(name: tokens[next].text, line: token.line))
        }
        return uses
    }

    /// The module files `script` requires, directly and through the modules it loads, each once,
    /// in the order first required; with the requires that name no module that can be found.
    static func follow(_ script: Script, libraries: [URL]) -> (files: [URL], missing: [(use: Use, in: URL?, message: String)]) {
        var files: [URL] = []
        var seen: Set<String> = []
        var missing: [(use: Use, in: URL?, message: String)] = []
        var queue: [(source: [UInt8], file: URL?)] = [(script.source, nil)]
        while !queue.isEmpty {
            let (source, file) = queue.removeFirst()
            for use in uses(in: source) where !ModuleResolver.standardLibraries.contains(use.name) {
                let resolver = ModuleResolver(scriptDirectory: script.directory, libraryDirectories: libraries)
                do {
                    let name = try ModuleName(use.name)
                    guard case .file(let url, _) = try resolver.locate(name) else { continue }
                    let path = url.standardizedFileURL.path
                    guard seen.insert(path).inserted else { continue }
                    files.append(url)
                    if let data = FileManager.default.contents(atPath: path) { queue.append(([UInt8](data), url)) }
                } catch {
                    missing.append((use, file, error.message))
                }
            }
        }
        return (files, missing)
    }
}
