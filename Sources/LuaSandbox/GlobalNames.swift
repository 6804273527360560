/// The names of globals whose types a chunk's run reports (``LuaSandbox/run(_:in:typesOf:)``),
/// put into the form the engine reads once, not at every run.
package struct GlobalNames: Sendable {
    /// Each name's UTF-8 bytes followed by a NUL, one after another.
    let joined: [CChar]
    /// How many names there are.
    package let count: Int

    /// No names.
    package static let none = GlobalNames([])

    /// The names, in the order their types are told. A name holds no NUL.
    package init(_ names: [String]) {
        precondition(names.allSatisfy { !$0.utf8.contains(0) }, "a global's name holds no NUL")
        joined = names.flatMap { name in name.utf8.map { CChar(bitPattern: $0) } + [0] }
        count = names.count
    }
}
