/// A token of Lua 5.4 source, as the checker's scanner needs it: names with their text,
/// keywords and operators by their spelling, literals without their values.
struct LuaToken: Sendable, Hashable {
    /// What kind of token it is.
    enum Kind: Sendable, Hashable {
        /// A name that is not a keyword; ``LuaToken/text`` holds it.
        case name
        /// A reserved word (`local`, `function`, `end`, …); ``LuaToken/text`` holds it.
        case keyword
        /// An operator or punctuation (`=`, `..`, `::`, `(`, …); ``LuaToken/text`` holds it.
        case symbol
        /// A string literal, short or long; ``LuaToken/text`` holds its contents when it has
        /// no escapes (enough to read `_G["name"]`), else is empty.
        case string
        /// A numeral.
        case number
        /// The end of the source.
        case end
    }

    /// The kind.
    let kind: Kind
    /// The spelling (see ``Kind``).
    let text: String
    /// The 1-based line the token starts on.
    let line: Int

    /// Whether this is the keyword or symbol `spelling`.
    func `is`(_ spelling: String) -> Bool {
        (kind == .keyword || kind == .symbol) && text == spelling
    }

    /// Lua 5.4's reserved words (manual §3.1).
    static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]
}

/// Source the lexer cannot read: an unfinished string or long comment, a stray character.
struct LuaSyntaxProblem: Error, Sendable, Hashable {
    /// The line it is on.
    let line: Int
    /// What is wrong.
    let message: String
}
