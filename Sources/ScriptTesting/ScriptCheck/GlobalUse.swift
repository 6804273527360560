/// A use of a global variable that the scope scanner found: a name that no local, parameter
/// or `for` variable in scope declares, read or written through the script's environment
/// (plainly, or as `_G.name` / `_ENV.name`).
enum GlobalUse: Sendable, Hashable {
    /// The global `name` is read on `line`.
    case read(String, line: Int)
    /// The global `name` is assigned on `line` (`name = …`, `function name()`).
    case write(String, line: Int)
    /// The field `field` of the global `global` is read (`json.decode`).
    case fieldRead(global: String, field: String, line: Int)
    /// The field `field` of the global `global` is assigned (`string.trim = …`).
    case fieldWrite(global: String, field: String, line: Int)
    /// The field or method `field` of a handler's `content` parameter is used
    /// (`content.titel = …`, `content:atach(f)`).
    case contentField(String, line: Int)
    /// The field `field` of what `require "module"` returned is read, through a local it was
    /// assigned to (`local p = require "pushscript.providers"` … `p.aply`; `via` is `p`) or
    /// directly (`via` is the `require` call as written).
    case moduleField(module: String, via: String, field: String, line: Int)
    /// The field `field` of a required module's table is assigned.
    case moduleFieldWrite(module: String, field: String, line: Int)
    /// A call passes a table of positional values only (`{"image"}`) as its argument number
    /// `argument` (1-based); `callee` names what is called (`download`, `http.post`,
    /// `content:attach`, `pushscript.providers.apply`), `shown` as the script writes it
    /// (`c:attach`, `providers.apply`). `strings` are the values when all are string literals.
    case listArgument(callee: String, shown: String, argument: Int, strings: [String]?, line: Int)

    /// The line it is on.
    var line: Int {
        switch self {
        case .read(_, let line), .write(_, let line), .fieldRead(_, _, let line), .fieldWrite(_, _, let line), .contentField(_, let line),
             .moduleField(_, _, _, let line), .moduleFieldWrite(_, _, let line), .listArgument(_, _, _, _, let line): line
        }
    }
}

/// What the scope scanner found in a chunk.
struct ScopeScan: Sendable {
    /// The uses of globals, in source order.
    var uses: [GlobalUse] = []
    /// Whether the chunk gives its environment a metatable (`setmetatable(_G, …)` or
    /// `setmetatable(_ENV, …)`): then reads of undeclared names may be answered by it.
    var changesEnvironment = false
    /// Whether the chunk declares a local `_ENV` somewhere: the names it uses in that local's
    /// scope are fields of another table, and what it defines there is not seen.
    var replacesEnvironment = false
}
