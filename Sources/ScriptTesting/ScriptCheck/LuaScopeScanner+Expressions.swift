extension LuaScopeScanner {
    private static let unaryOperators: Set<String> = ["not", "-", "#", "~"]
    private static let binaryOperators: Set<String> = [
        "+", "-", "*", "/", "//", "%", "^", "..", "==", "~=", "<", "<=", ">", ">=", "and", "or", "&", "|", "~", "<<", ">>",
    ]

    private func isOperator(_ set: Set<String>) -> Bool {
        (current.kind == .symbol || current.kind == .keyword) && set.contains(current.text)
    }

    /// `explist ::= exp {',' exp}`; for each expression, the module it is when it is just a
    /// `require` of a literal name.
    @discardableResult
    mutating func expressionList() throws(LuaSyntaxProblem) -> [String?] {
        var modules: [String?] = []
        repeat { modules.append(try expression()) } while accept(",")
        return modules
    }

    /// `exp`: operands joined by unary and binary operators (precedence does not matter here).
    /// Returns the module's name when the expression is just `require "name"`.
    @discardableResult
    mutating func expression() throws(LuaSyntaxProblem) -> String? {
        var module: String?
        var operands = 0
        while true {
            var unary = false
            while isOperator(Self.unaryOperators) {
                advance()
                unary = true
            }
            module = try simpleExpression()
            if unary { module = nil }
            operands += 1
            guard isOperator(Self.binaryOperators) else { return operands == 1 ? module : nil }
            advance()
        }
    }

    @discardableResult
    private mutating func simpleExpression() throws(LuaSyntaxProblem) -> String? {
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
            let target = try suffixedExpression()
            read(target)
            if case .module(let name) = target { return name }
        }
        return nil
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
                var callee: (key: String, shown: String)?
                if case .name(let base, _) = target, isContent(base) {
                    useContentField(method.text, line: method.line)
                    callee = ("content:\(method.text)", "\(base):\(method.text)")
                }
                if case .name(let base, _) = target, let module = module(base) {
                    record(.moduleField(module: module, via: base, field: method.text, line: method.line))
                } else if case .module(let module) = target {
                    record(.moduleField(module: module, via: "require(\"\(module)\")", field: method.text, line: method.line))
                }
                try callArguments(callee: callee, line: method.line)
                target = .other
            } else if current.is("(") || current.is("{") || current.kind == .string {
                read(target)
                let line = current.line
                let literal = try callArguments(callee: callee(target), line: line)
                if case .name("require", _) = target, isGlobal("require"), let literal, !literal.isEmpty {
                    target = .module(literal)
                } else {
                    target = .other
                }
            } else {
                return target
            }
        }
    }

    /// `args ::= '(' [explist] ')' | tableconstructor | LiteralString`. Returns the string
    /// when the arguments are one string literal (`require "x"`, `require("x")`). An argument
    /// that is a table of positional values only is recorded as a ``GlobalUse/listArgument``
    /// of `callee`.
    @discardableResult
    private mutating func callArguments(callee: (key: String, shown: String)?, line: Int) throws(LuaSyntaxProblem) -> String? {
        if current.kind == .string {
            return advance().text
        } else if current.is("{") {
            let table = try tableConstructor()
            noteList(table, callee: callee, argument: 1, line: line)
            return nil
        }
        try expect("(")
        var literal: String?
        var argument = 0
        if !current.is(")") {
            repeat {
                argument += 1
                if argument == 1, current.kind == .string, lookahead().is(")") { literal = current.text }
                if current.is("{") {
                    let table = try tableConstructor()
                    if current.is(",") || current.is(")") {
                        noteList(table, callee: callee, argument: argument, line: line)
                    } else if isOperator(Self.binaryOperators) {
                        advance()
                        try expression()
                    }
                } else {
                    try expression()
                }
            } while accept(",")
        }
        try expect(")")
        return literal
    }

    /// What a table constructor holds: how many positional and keyed fields, and the
    /// positional ones' texts when every one is a string literal.
    struct TableShape {
        var positional = 0
        var keyed = 0
        var strings: [String]? = []
    }

    private mutating func noteList(_ table: TableShape, callee: (key: String, shown: String)?, argument: Int, line: Int) {
        guard let callee, table.positional > 0, table.keyed == 0 else { return }
        record(.listArgument(callee: callee.key, shown: callee.shown, argument: argument, strings: table.strings, line: line))
    }

    /// `tableconstructor ::= '{' [fieldlist] '}'`; `Name = exp` keys are not variables.
    @discardableResult
    private mutating func tableConstructor() throws(LuaSyntaxProblem) -> TableShape {
        var shape = TableShape()
        try expect("{")
        while !current.is("}") {
            if accept("[") {
                try expression()
                try expect("]")
                try expect("=")
                try expression()
                shape.keyed += 1
            } else if current.kind == .name, lookahead().is("=") {
                advance()
                advance()
                try expression()
                shape.keyed += 1
            } else {
                let isString = current.kind == .string && (lookahead().is(",") || lookahead().is(";") || lookahead().is("}"))
                let text = current.text
                try expression()
                shape.positional += 1
                if isString { shape.strings?.append(text) } else { shape.strings = nil }
            }
            if !accept(","), !accept(";") { break }
        }
        try expect("}")
        return shape
    }

    /// Whether a string is a Lua name (so `t["x"]` can be read as `t.x`).
    static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(48...57).contains(first), !LuaToken.keywords.contains(text) else { return false }
        return text.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
