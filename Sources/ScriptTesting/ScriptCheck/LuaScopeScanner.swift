/// Follows a chunk through Lua 5.4's grammar (manual §9) keeping track of which names are
/// locals, and reports every use of a name that is not: reads and writes of globals.
///
/// What declares a local, as Lua scopes it: `local` statements (in scope after their whole
/// statement, so `local x = x` reads the outer `x`), `local function` (in scope in its own
/// body), function parameters and a method's implicit `self`, the variables of both `for`
/// forms, each in the block it opens; `repeat … until cond` sees the block's locals in `cond`.
/// Inner functions see the locals of outer ones (upvalues). `_G.name` and `_ENV.name` are
/// uses of the global `name`; once a local `_ENV` is in scope, free names are fields of that
/// table and are not reported.
///
/// It does not evaluate anything: operator precedence does not matter for scoping and is not
/// followed. Source that Lua compiles is expected; anything else throws ``LuaSyntaxProblem``.
struct LuaScopeScanner {
    private let tokens: [LuaToken]
    private var position = 0
    /// Names declared in each open block, innermost last.
    private var scopes: [Set<String>] = [[]]
    /// The names in each open block that are a handler's `content` parameter
    /// (`didReceive`'s second, `bestAttempt`'s first, `afterDelivery`'s second).
    private var contentNames: [Set<String>] = [[]]
    /// The names in each open block that are locals holding a required module's table
    /// (`local p = require "pushscript.providers"`), with the module's name.
    private var moduleNames: [[String: String]] = [[:]]
    private var result = ScopeScan()

    private init(tokens: [LuaToken]) { self.tokens = tokens }

    /// Scans a chunk.
    static func scan(_ source: [UInt8]) throws(LuaSyntaxProblem) -> ScopeScan {
        var scanner = LuaScopeScanner(tokens: try LuaLexer.tokens(source))
        scanner.result.changesEnvironment = scanner.setsEnvironmentMetatable()
        try scanner.block()
        guard scanner.current.kind == .end else { throw scanner.problem("'<eof>' expected") }
        return scanner.result
    }

    // MARK: Tokens

    var current: LuaToken { tokens[position] }

    func lookahead(_ offset: Int = 1) -> LuaToken { tokens[min(position + offset, tokens.count - 1)] }

    @discardableResult
    mutating func advance() -> LuaToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    mutating func accept(_ spelling: String) -> Bool {
        guard current.is(spelling) else { return false }
        advance()
        return true
    }

    mutating func expect(_ spelling: String) throws(LuaSyntaxProblem) {
        guard accept(spelling) else { throw problem("'\(spelling)' expected") }
    }

    mutating func expectName() throws(LuaSyntaxProblem) -> LuaToken {
        guard current.kind == .name else { throw problem("name expected") }
        return advance()
    }

    func problem(_ message: String) -> LuaSyntaxProblem {
        let near = current.kind == .end ? "<eof>" : (current.text.isEmpty ? "\(current.kind)" : current.text)
        return LuaSyntaxProblem(line: current.line, message: "\(message) near '\(near)'")
    }

    // MARK: Scopes

    mutating func openScope() {
        scopes.append([])
        contentNames.append([])
        moduleNames.append([:])
    }

    mutating func closeScope() {
        scopes.removeLast()
        contentNames.removeLast()
        moduleNames.removeLast()
    }

    /// Declares a local; `module` is the name of the module whose table it holds.
    mutating func declare(_ name: String, isContent: Bool = false, module: String? = nil) {
        scopes[scopes.count - 1].insert(name)
        if isContent { contentNames[contentNames.count - 1].insert(name) } else { contentNames[contentNames.count - 1].remove(name) }
        moduleNames[moduleNames.count - 1][name] = module
        if name == "_ENV" { result.replacesEnvironment = true }
    }

    /// The module whose table the local `name` holds, here (not shadowed by a later local).
    func module(_ name: String) -> String? {
        guard let level = scopes.lastIndex(where: { $0.contains(name) }) else { return nil }
        return moduleNames[level][name]
    }

    /// Whether `name`, here, is a handler's `content` parameter (not shadowed by a later local).
    func isContent(_ name: String) -> Bool {
        guard let level = scopes.lastIndex(where: { $0.contains(name) }) else { return false }
        return contentNames[level].contains(name)
    }

    /// Records a use.
    mutating func record(_ use: GlobalUse) {
        result.uses.append(use)
    }

    /// Records the use of a field or method of a `content` parameter.
    mutating func useContentField(_ field: String, line: Int) {
        result.uses.append(.contentField(field, line: line))
    }

    func isLocal(_ name: String) -> Bool { scopes.contains { $0.contains(name) } }

    /// Whether a name that is not local goes to the script's own environment: no local
    /// `_ENV` is in scope.
    var freeNamesAreGlobals: Bool { !isLocal("_ENV") }

    /// Whether `name`, here, is a global of the script's environment.
    func isGlobal(_ name: String) -> Bool { freeNamesAreGlobals && !isLocal(name) }

    /// Whether `name`, here, is the environment itself (`_ENV`, or `_G` read from it).
    func namesEnvironment(_ name: String) -> Bool { (name == "_ENV" || name == "_G") && isGlobal(name) }

    // MARK: Uses

    /// A variable whose use (read or write) is not yet known.
    enum Target {
        /// A bare name.
        case name(String, line: Int)
        /// A field of a global: `base.field` or `base["field"]`.
        case field(base: String, baseLine: Int, field: String, line: Int)
        /// A required module's table: `require "name"`'s result, or a local holding it.
        case module(String)
        /// A field of a required module's table, reached through `via` (a local's name, or the
        /// `require` call).
        case moduleField(module: String, via: String, field: String, line: Int)
        /// Anything else: a call's result, a parenthesized value, a deeper index.
        case other
    }

    /// What a call calls, as check names it (`download`, `http.post`, `content:attach`,
    /// `pushscript.providers.apply`), and as the script writes it; or nil.
    func callee(_ target: Target) -> (key: String, shown: String)? {
        switch target {
        case .name(let name, _) where isGlobal(name): (name, name)
        case .field(let base, _, let field, _) where !namesEnvironment(base): ("\(base).\(field)", "\(base).\(field)")
        case .field(_, _, let field, _): (field, field)
        case .moduleField(let module, let via, let field, _): ("\(module).\(field)", "\(via).\(field)")
        default: nil
        }
    }

    /// `target.field`: a field of a global stays pending; anything deeper is a read.
    mutating func index(_ target: Target, field: String, line: Int) -> Target {
        if case .name(let base, _) = target, isContent(base) { useContentField(field, line: line) }
        if case .name(let base, _) = target, let module = module(base) { return .moduleField(module: module, via: base, field: field, line: line) }
        switch target {
        case .module(let module):
            return .moduleField(module: module, via: "require(\"\(module)\")", field: field, line: line)
        case .moduleField:
            read(target)
            return .other
        case .name(let base, let baseLine) where isGlobal(base):
            return .field(base: base, baseLine: baseLine, field: field, line: line)
        case .field:
            read(target)
            return .other
        case .name, .other:
            return .other
        }
    }

    /// Records `target` as read.
    mutating func read(_ target: Target) {
        switch target {
        case .moduleField(let module, let via, let field, let line):
            result.uses.append(.moduleField(module: module, via: via, field: field, line: line))
        case .module:
            break
        case .name(let name, let line):
            if isGlobal(name), name != "_ENV" { result.uses.append(.read(name, line: line)) }
        case .field(let base, let baseLine, let field, let line):
            if namesEnvironment(base) {
                result.uses.append(.read(field, line: line))
            } else {
                result.uses.append(.read(base, line: baseLine))
                result.uses.append(.fieldRead(global: base, field: field, line: line))
            }
        case .other:
            break
        }
    }

    /// Records `target` as assigned.
    mutating func write(_ target: Target) {
        switch target {
        case .moduleField(let module, _, let field, let line):
            result.uses.append(.moduleFieldWrite(module: module, field: field, line: line))
        case .module:
            break
        case .name(let name, let line):
            if isGlobal(name), name != "_ENV" { result.uses.append(.write(name, line: line)) }
        case .field(let base, let baseLine, let field, let line):
            if namesEnvironment(base) {
                result.uses.append(.write(field, line: line))
            } else {
                result.uses.append(.read(base, line: baseLine))
                result.uses.append(.fieldWrite(global: base, field: field, line: line))
            }
        case .other:
            break
        }
    }

    /// Whether the chunk calls `setmetatable(_G, …)` or `setmetatable(_ENV, …)`.
    private func setsEnvironmentMetatable() -> Bool {
        tokens.indices.dropLast(2).contains { i in
            tokens[i].kind == .name && tokens[i].text == "setmetatable" && tokens[i + 1].is("(")
                && tokens[i + 2].kind == .name && (tokens[i + 2].text == "_G" || tokens[i + 2].text == "_ENV")
        }
    }
}
