extension LuaScopeScanner {
    /// Whether the current token ends a block.
    var atBlockEnd: Bool {
        current.kind == .end || current.is("end") || current.is("else") || current.is("elseif") || current.is("until")
    }

    /// `block ::= {stat} [retstat]`, in the current scope.
    mutating func block() throws(LuaSyntaxProblem) {
        while !atBlockEnd {
            if accept("return") {
                if !atBlockEnd, !current.is(";") { try expressionList() }
                _ = accept(";")
                return
            }
            try statement()
        }
    }

    /// A block in a scope of its own.
    mutating func scopedBlock() throws(LuaSyntaxProblem) {
        openScope()
        try block()
        closeScope()
    }

    mutating func statement() throws(LuaSyntaxProblem) {
        let token = current
        switch token.kind == .keyword || token.kind == .symbol ? token.text : "" {
        case ";", "break":
            advance()
        case "::":
            advance()
            _ = try expectName()
            try expect("::")
        case "goto":
            advance()
            _ = try expectName()
        case "do":
            advance()
            try scopedBlock()
            try expect("end")
        case "while":
            advance()
            try expression()
            try expect("do")
            try scopedBlock()
            try expect("end")
        case "repeat":
            advance()
            openScope()
            try block()
            try expect("until")
            try expression()
            closeScope()
        case "if":
            advance()
            try expression()
            try expect("then")
            try scopedBlock()
            while accept("elseif") {
                try expression()
                try expect("then")
                try scopedBlock()
            }
            if accept("else") { try scopedBlock() }
            try expect("end")
        case "for":
            advance()
            try forStatement()
        case "function":
            advance()
            try functionStatement()
        case "local":
            advance()
            try localStatement()
        default:
            try expressionStatement()
        }
    }

    /// `for Name = exp, exp [, exp] do block end` or `for namelist in explist do block end`.
    private mutating func forStatement() throws(LuaSyntaxProblem) {
        var names = [try expectName().text]
        if accept("=") {
            try expression()
            try expect(",")
            try expression()
            if accept(",") { try expression() }
        } else {
            while accept(",") { names.append(try expectName().text) }
            try expect("in")
            try expressionList()
        }
        try expect("do")
        openScope()
        names.forEach { declare($0) }
        try block()
        closeScope()
        try expect("end")
    }

    /// `function funcname funcbody`: `a` assigns the global or local `a`; `a.b.c` and `a:m`
    /// read `a` and assign a field.
    private mutating func functionStatement() throws(LuaSyntaxProblem) {
        let first = try expectName()
        var target = Target.name(first.text, line: first.line)
        var isMethod = false
        while accept(".") {
            let field = try expectName()
            target = index(target, field: field.text, line: field.line)
        }
        if accept(":") {
            let method = try expectName()
            target = index(target, field: method.text, line: method.line)
            isMethod = true
        }
        write(target)
        var contentParameter: Int?
        if case .name(let name, _) = target, isGlobal(name) {
            contentParameter = ["didReceive": 1, "bestAttempt": 0, "afterDelivery": 1][name]
        }
        try functionBody(isMethod: isMethod, contentParameter: contentParameter)
    }

    /// `local function Name funcbody` or `local attnamelist ['=' explist]`.
    private mutating func localStatement() throws(LuaSyntaxProblem) {
        if accept("function") {
            declare(try expectName().text)
            try functionBody(isMethod: false)
            return
        }
        var names: [String] = []
        repeat {
            names.append(try expectName().text)
            if accept("<") {
                _ = try expectName()
                try expect(">")
            }
        } while accept(",")
        var modules: [String?] = []
        if accept("=") { modules = try expressionList() }
        for (index, name) in names.enumerated() {
            declare(name, module: index < modules.count ? modules[index] : nil)
        }
    }

    /// An assignment or a function call.
    private mutating func expressionStatement() throws(LuaSyntaxProblem) {
        let first = try suffixedExpression()
        guard current.is("=") || current.is(",") else {
            read(first)
            return
        }
        var targets = [first]
        while accept(",") { targets.append(try suffixedExpression()) }
        try expect("=")
        try expressionList()
        targets.forEach { write($0) }
    }

    /// `funcbody ::= '(' [parlist] ')' block end`, in a scope of its own; a method's `self`
    /// is its first parameter.
    /// A function's parameters and body; `contentParameter` is the index of a handler's
    /// `content` parameter.
    mutating func functionBody(isMethod: Bool, contentParameter: Int? = nil) throws(LuaSyntaxProblem) {
        openScope()
        if isMethod { declare("self") }
        try expect("(")
        if !current.is(")") {
            var index = 0
            repeat {
                if accept("...") { break }
                declare(try expectName().text, isContent: index == contentParameter)
                index += 1
            } while accept(",")
        }
        try expect(")")
        try block()
        try expect("end")
        closeScope()
    }
}
