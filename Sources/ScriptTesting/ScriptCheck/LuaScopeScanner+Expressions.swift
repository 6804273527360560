extension LuaScopeScanner {
    private static let unaryOperators: Set<String> = ["not", "-", "#", "~"]
    private static let binaryOperators: Set<String> = [
        "+", "-", "*", "/", "//", "%", "^", "..", "==", "~=", "<", "<=", ">", ">=", "and", "or", "&", "|", "~", "<<", ">>",
    ]

    private func isOperator(_ set: Set<String>) -> Bool {
        (current.kind == .symbol || current.kind == .keyword) && set.contains(current.text)
    }

    /// `explist ::= exp {',' exp}`.
    mutating func expressionList() throws(LuaSyntaxProblem) {
        repeat { try expression() } while accept(",")
    }

    /// `exp`: operands joined by unary and binary operators (precedence does not matter here).
    mutating func expression() throws(LuaSyntaxProblem) {
        while true {
            while isOperator(Self.unaryOperators) { advance() }
            try simpleExpression()
            guard isOperator(Self.binaryOperators) else { return }
            advance()
        }
    }

    private mutating func simpleExpression() throws(LuaSyntaxProblem) {
        switch current.kind {
        case .number, .string:
            advance()
        case .keyword where ["nil", "true", "false"].contains(current.text):
            advance()
        case .keyword where current.text == "function":
            advance()
            try functionBody(isMethod: false)
        case .symbol where current.text == "...":
            advance()
        case .symbol where current.text == "{":
            try tableConstructor()
        default:
            read(try suffixedExpression())
        }
    }

    /// `prefixexp` followed by indexes and calls. A bare name, or a name with one field, is
    /// returned pending: the caller knows whether it is read or assigned.
    mutating func suffixedExpression() throws(LuaSyntaxProblem) -> Target {
        var target: Target
        if current.kind == .name {
            let name = advance()
            target = .name(name.text, line: name.line)
        } else if accept("(") {
            try expression()
            try expect(")")
            target = .other
        } else {
            throw problem("unexpected symbol")
        }
        while true {
            if accept(".") {
                let field = try expectName()
                target = index(target, field: field.text, line: field.line)
            } else if current.is("[") {
                let line = current.line
                advance()
                if current.kind == .string, lookahead().is("]"), Self.isName(current.text) {
                    let field = advance().text
                    target = index(target, field: field, line: line)
                } else {
                    read(target)
                    try expression()
                    target = .other
                }
                try expect("]")
            } else if accept(":") {
                read(target)
                let method = try expectName()
                if case .name(let base, _) = target, isContent(base) { useContentField(method.text, line: method.line) }
                try callArguments()
                target = .other
            } else if current.is("(") || current.is("{") || current.kind == .string {
                read(target)
                try callArguments()
                target = .other
            } else {
                return target
            }
        }
    }

    /// `args ::= '(' [explist] ')' | tableconstructor | LiteralString`.
    private mutating func callArguments() throws(LuaSyntaxProblem) {
        if current.kind == .string {
            advance()
        } else if current.is("{") {
            try tableConstructor()
        } else {
            try expect("(")
            if !current.is(")") { try expressionList() }
            try expect(")")
        }
    }

    /// `tableconstructor ::= '{' [fieldlist] '}'`; `Name = exp` keys are not variables.
    private mutating func tableConstructor() throws(LuaSyntaxProblem) {
        try expect("{")
        while !current.is("}") {
            if accept("[") {
                try expression()
                try expect("]")
                try expect("=")
                try expression()
            } else if current.kind == .name, lookahead().is("=") {
                advance()
                advance()
                try expression()
            } else {
                try expression()
            }
            if !accept(","), !accept(";") { break }
        }
        try expect("}")
    }

    /// Whether a string is a Lua name (so `t["x"]` can be read as `t.x`).
    static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(48...57).contains(first), !LuaToken.keywords.contains(text) else { return false }
        return text.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
