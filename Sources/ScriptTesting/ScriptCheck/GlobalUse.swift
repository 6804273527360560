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

    /// The line it is on.
    var line: Int {
        switch self {
        case .read(_, let line), .write(_, let line), .fieldRead(_, _, let line), .fieldWrite(_, _, let line), .contentField(_, let line): line
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
