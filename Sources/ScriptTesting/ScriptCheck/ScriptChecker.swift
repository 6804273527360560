import Foundation
import LuaSandbox
import NotificationModel
import ScriptHost

/// Checks a script before it meets a payload (`pushscript check`): it must compile, define
/// `didReceive`, use only the globals the sandbox has, and require modules that can be found;
/// the modules it requires are checked too.
///
/// The script is compiled in a ``LuaSandbox`` on a Lua thread, as the host compiles it; it is
/// never run. Globals are found by a scope scanner of Lua's grammar, and compared with the
/// globals of a real fresh environment of the host (``SandboxGlobals``).
public struct ScriptChecker: Sendable {
    /// The globals a script's environment starts with.
    public let globals: SandboxGlobals
    /// The globals a script is meant to define: its handlers.
    public static let handlers: Set<String> = ["didReceive", "bestAttempt", "afterDelivery"]
    /// The handlers in the order a "did you mean" prefers them.
    static let handlerOrder = ["didReceive", "bestAttempt", "afterDelivery"]
    /// The calls whose argument number `argument` is a table of named options, and the names
    /// it takes: a list there (`download(url, {"image"})`) is a mistake.
    public static let optionTables: [String: (argument: Int, keys: [String])] = [
        "download": (2, ["timeout", "maxBytes", "kinds"]),
        "downloadAll": (2, ["timeout", "maxBytes", "kinds"]),
        "content:attach": (2, ["identifier", "thumbnailHidden", "thumbnailClippingRect", "thumbnailTime"]),
        "http.post": (3, ["method", "contentType", "headers", "timeout"]),
        "store.increment": (3, ["min", "max"]),
        "categories.register": (1, ["identifier", "actions", "options"]),
        "crypto.decrypt": (1, ["alg", "key", "nonce", "ciphertext", "tag", "aad"]),
        "pushscript.providers.apply": (3, ["text", "buttons", "badge", "media", "badgeKey", "timeout", "partialMedia", "receipts", "receiptTimeout"]),
    ]
    /// The kinds `download`'s `kinds` takes.
    static let mediaKinds: Set<String> = ["image", "audio", "video"]
    /// What notification content has: its fields (``ContentField``) and its methods.
    public static let contentMembers: Set<String> = Set(ContentField.names).union(["attach", "removeAttachments", "suppress"])
    /// Library tables whose fields the app fills in at run time: never checked.
    public static let openTables: Set<String> = ["hooks"]

    private let executor: SandboxExecutor
    private let memoryLimit: Int

    /// A checker against `globals`; compiles under `memoryLimit` bytes (the host's default).
    public init(globals: SandboxGlobals, memoryLimit: Int = ScriptLimits.default.memoryBytes) {
        self.init(globals: globals, memoryLimit: memoryLimit, executor: SandboxExecutor())
    }

    /// A checker that compiles on the Lua threads of `executor`.
    package init(globals: SandboxGlobals, memoryLimit: Int, executor: SandboxExecutor) {
        self.globals = globals
        self.memoryLimit = memoryLimit
        self.executor = executor
    }

    /// A checker against the globals of a real fresh environment of the host.
    ///
    /// - Throws: ``SandboxGlobals/ReadError`` when the globals cannot be read.
    public static func forHost() async throws(SandboxGlobals.ReadError) -> ScriptChecker {
        ScriptChecker(globals: try await ScriptHost.sandboxGlobals())
    }

    /// The findings for one script, errors first, then warnings in line order. A script that
    /// does not compile gets that error alone.
    public func check(_ script: Script) async -> [ScriptFinding] {
        if let failure = await compile(script) { return [failure] }
        return analyse(script.source)
    }

    /// The findings for a module a script requires: as for a script, but a module need not
    /// define `didReceive`.
    public func checkModule(_ module: Script) async -> [ScriptFinding] {
        if let failure = await compile(module, what: "module") { return [failure] }
        return analyse(module.source, module: true)
    }

    /// The module files `script` requires by literal names, directly or through its modules,
    /// each once; and a `module` finding for each `require` whose module cannot be found, with
    /// the file it is in (nil: the script itself). Modules are looked for as the host looks for
    /// them: beside the script, then in `libraries`; bundled modules are not listed.
    public func modules(requiredBy script: Script, libraries: [URL]) -> (files: [URL], problems: [(file: URL?, finding: ScriptFinding)]) {
        let followed = RequireScanner.follow(script, libraries: libraries)
        return (followed.files, followed.missing.map { ($0.in, ScriptFinding(.module, line: $0.use.line, $0.message)) })
    }

    /// Compiles on a Lua thread in a fresh sandbox; the finding when it does not compile.
    func compile(_ script: Script, what: String = "script") async -> ScriptFinding? {
        let chunkName = "script"
        let limit = memoryLimit
        let sandbox: LuaSandbox
        do { sandbox = try LuaSandbox(memoryLimit: limit) } catch {
            return ScriptFinding(.compile, line: nil, "cannot make a Lua state to compile in: \(error.message)")
        }
        let outcome = await executor.run(sandbox, deadline: .after(.seconds(30))) { sandbox -> ScriptCompiler.Failure? in
            ScriptCompiler.check(script.source, chunkName: chunkName, in: sandbox, memoryLimit: limit, cpuTime: .seconds(30))
        }
        switch outcome {
        case .abandoned:
            return ScriptFinding(.compile, line: nil, "compiling took longer than 30 s")
        case .notStarted:
            return ScriptFinding(.compile, line: nil, "the script was not compiled: no Lua thread was free within 30 s")
        case .finished(nil):
            return nil
        case .finished(.tooLarge(let bytes)?):
            return ScriptFinding(.compile, line: nil, ScriptCompiler.tooLargeMessage("the \(what)", bytes: bytes, what: what))
        case .finished(.refused(.error(let message))?):
            return Self.compileFinding(message, chunkName: chunkName)
        case .finished(.refused(.limit(let kind))?):
            let what = kind == .memory ? "more than \(limit >> 20) MiB of memory" : "too long"
            return ScriptFinding(.compile, line: nil, "compiling the script took \(what)")
        case .finished(.refused(let status)?):
            return ScriptFinding(.compile, line: nil, "the script did not compile (\(status))")
        }
    }

    /// Lua's `chunk:line: message` as a finding on that line.
    static func compileFinding(_ message: String, chunkName: String) -> ScriptFinding {
        let prefix = chunkName + ":"
        guard message.hasPrefix(prefix) else { return ScriptFinding(.compile, line: nil, message) }
        let rest = message.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let line = Int(digits), rest.dropFirst(digits.count).hasPrefix(": ") else {
            return ScriptFinding(.compile, line: nil, message)
        }
        return ScriptFinding(.compile, line: line, String(rest.dropFirst(digits.count + 2)))
    }

    /// The handler and global findings of source that compiles.
    public func analyse(_ source: [UInt8], module: Bool = false) -> [ScriptFinding] {
        let scan: ScopeScan
        do { scan = try LuaScopeScanner.scan(source) } catch {
            return [ScriptFinding(.unchecked, line: error.line, "globals not checked: the checker cannot follow the source here (\(error.message))")]
        }
        var writtenGlobals: Set<String> = []
        var writtenFields: Set<String> = []
        for use in scan.uses {
            if case .write(let name, _) = use { writtenGlobals.insert(name) }
            if case .fieldWrite(let global, let field, _) = use { writtenFields.insert("\(global).\(field)") }
            if case .moduleFieldWrite(let module, let field, _) = use { writtenFields.insert("\(module).\(field)") }
        }
        var errors: [ScriptFinding] = []
        if !module, !writtenGlobals.contains("didReceive"), !scan.replacesEnvironment {
            let near = writtenGlobals.sorted().first { NearestName.nearest(to: $0, among: ["didReceive"]) != nil }
            let hint = near.map { "; '\($0)' is defined: did you mean 'didReceive'?" } ?? ""
            errors.append(ScriptFinding(.missingHandler, line: nil, "no didReceive function\(hint)"))
        }
        let knownGlobals = globals.names.union(writtenGlobals).sorted()
        func mean(_ name: String, among candidates: some Sequence<String>) -> String {
            NearestName.hint(for: name, among: candidates).map { "; \($0)" } ?? ""
        }
        var warnings: [ScriptFinding] = []
        var seen: Set<ScriptFinding> = []
        func add(_ finding: ScriptFinding) {
            if seen.insert(finding).inserted { warnings.append(finding) }
        }
        for use in scan.uses {
            switch use {
            case .read(let name, let line):
                if !scan.changesEnvironment, !globals.names.contains(name), !writtenGlobals.contains(name) {
                    add(ScriptFinding(.unknownGlobal, line: line, "read of unknown global '\(name)'\(mean(name, among: knownGlobals))"))
                }
            case .write(let name, let line):
                if Self.handlers.contains(name) { break }
                if let handler = NearestName.nearest(to: name, among: Self.handlerOrder) {
                    add(ScriptFinding(.misspeltHandler, line: line, "'\(name)' is not a handler, so it is never called; did you mean '\(handler)'?"))
                } else {
                    add(ScriptFinding(.globalWrite, line: line, "write of global '\(name)' (make it local)"))
                }
            case .fieldRead(let global, let field, let line):
                if !Self.openTables.contains(global), !writtenGlobals.contains(global), let known = globals.fields[global],
                   !known.contains(field), !writtenFields.contains("\(global).\(field)") {
                    let hint = NearestName.nearest(to: field, among: known.sorted()).map { "; did you mean '\(global).\($0)'?" } ?? ""
                    add(ScriptFinding(.unknownField, line: line, "read of unknown field '\(global).\(field)'\(hint)"))
                }
            case .fieldWrite, .moduleFieldWrite:
                break
            case .contentField(let field, let line):
                if !Self.contentMembers.contains(field) {
                    add(ScriptFinding(.unknownContentField, line: line, "content has no field '\(field)'\(mean(field, among: Self.contentMembers.sorted()))"))
                }
            case .moduleField(let module, let via, let field, let line):
                if let known = globals.moduleFields[module], !known.contains(field), !writtenFields.contains("\(module).\(field)") {
                    let hint = NearestName.nearest(to: field, among: known.sorted()).map { "; did you mean '\(via).\($0)'?" } ?? ""
                    add(ScriptFinding(.unknownField, line: line, "read of unknown field '\(via).\(field)' of module '\(module)'\(hint)"))
                }
            case .listArgument(let callee, let shown, let argument, let strings, let line):
                guard let spec = Self.optionTables[callee], spec.argument == argument else { break }
                let list = strings.map { "{" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "}" }
                var message = "\(shown) takes its options as named keys (\(spec.keys.joined(separator: ", "))), not a list\(list.map { " like \($0)" } ?? "")"
                if callee.hasPrefix("download"), let strings, let list, strings.allSatisfy(Self.mediaKinds.contains) {
                    message += "; did you mean {kinds = \(list)}?"
                }
                add(ScriptFinding(.listOptions, line: line, message))
            }
        }
        // Stable: uses are in source order, so equal lines keep it.
        let ordered = warnings.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
        return errors + ordered.map(\.element)
    }
}
