import Foundation
import NotificationModel
import ScriptHost
import Testing

/// `docs/script-api.md`, the script API's reference, against a real environment: what the host
/// installs is documented, and what is documented is installed.
@Suite("Script API reference")
struct ScriptAPIDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func reference() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/script-api.md"), encoding: .utf8)
    }

    /// The page's `## Index` table: global → the fields its second column names.
    static func index(_ text: String) -> [String: Set<String>] {
        guard let start = text.range(of: "\n## Index\n") else { return [:] }
        let section = text[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        var rows: [String: Set<String>] = [:]
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[name] = Set(codeSpans(cells[2]))
        }
        return rows
    }

    /// The text between backticks, in order.
    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The page without its index: where each name must also be described.
    static func body(_ text: String) -> String {
        guard let start = text.range(of: "\n## Index\n") else { return text }
        return String(text[..<start.lowerBound])
    }

    @Test func theIndexListsExactlyTheEnvironment() async throws {
        let text = try Self.reference()
        let documented = Self.index(text)
        try #require(!documented.isEmpty, "docs/script-api.md has no '## Index' table")
        let globals = try await ScriptHost.sandboxGlobals()
        let missing = globals.names.subtracting(documented.keys).sorted()
        let extra = Set(documented.keys).subtracting(globals.names).sorted()
        #expect(missing.isEmpty, "globals the host installs that docs/script-api.md does not list: \(missing)")
        #expect(extra.isEmpty, "globals docs/script-api.md lists that a script's environment lacks: \(extra)")
        for name in globals.names.sorted() {
            let installed = globals.fields[name] ?? []
            let listed = documented[name] ?? []
            #expect(installed.subtracting(listed).isEmpty, "'\(name)' fields not documented: \(installed.subtracting(listed).sorted())")
            #expect(listed.subtracting(installed).isEmpty, "'\(name)' fields documented but absent: \(listed.subtracting(installed).sorted())")
        }
    }

    @Test func everyHostGlobalAndFieldIsDescribed() async throws {
        let body = Self.body(try Self.reference())
        let globals = try await ScriptHost.sandboxGlobals()
        let undescribed = globals.names.filter { !body.contains("`\($0)") }.sorted()
        #expect(undescribed.isEmpty, "docs/script-api.md does not describe these globals outside its index: \(undescribed)")
        for name in globals.names.subtracting(TypeDefinitionTests.standard).sorted() {
            let fields = (globals.fields[name] ?? []).filter { !body.contains("`\(name).\($0)") }.sorted()
            #expect(fields.isEmpty, "docs/script-api.md does not describe these fields of '\(name)': \(fields)")
        }
        let handlers = ["didReceive(request, content)", "bestAttempt(content, reason, request)"].filter { !body.contains("`\($0)`") }
        #expect(handlers.isEmpty, "handlers not described: \(handlers)")
    }

    @Test func everyContentAndRequestFieldIsDescribed() throws {
        let body = Self.body(try Self.reference())
        let fields = ContentField.names.filter { !body.contains("`content.\($0)`") }
        #expect(fields.isEmpty, "content fields not described: \(fields)")
        let methods = ["attach(file [, options])", "removeAttachments()", "suppress()"].filter { !body.contains("`content:\($0)") }
        #expect(methods.isEmpty, "content methods not described: \(methods)")
        let request = ["identifier", "app", "content", "locales"].filter { !body.contains("`request.\($0)`") }
        #expect(request.isEmpty, "request fields not described: \(request)")
    }

    @Test func theIndexReaderSeesWhatIsMissing() {
        let page = "# x\n\n## Index\n\n| global | fields |\n|---|---|\n| `json` | `decode`, `encode` |\n| `print` | |\n\nafter\n"
        #expect(Self.index(page) == ["json": ["decode", "encode"], "print": []])
        #expect(Self.index("# no index\n").isEmpty)
    }
}
