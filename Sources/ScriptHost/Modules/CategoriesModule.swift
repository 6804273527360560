import LuaSandbox
import NotificationModel

/// `categories.has/get/list/register/remove/localized`: the app's registered categories.
extension HostedSandbox {
    /// The largest category a script may register, as compact JSON: with at most 128
    /// registered per app, an app's registrations stay within 2 MiB of the host's memory and
    /// of its state file.
    static let maximumCategoryBytes = 16 * 1024

    /// The size of `value` as compact JSON, counted without writing it (strings by their
    /// UTF-8 bytes and quotes; escapes not counted).
    static func jsonSize(_ value: JSONValue) -> Int {
        switch value {
        case .string(let s): s.utf8.count + 2
        case .array(let a): a.reduce(2) { $0 + jsonSize($1) + 1 }
        case .object(let o): o.reduce(2) { $0 + $1.key.utf8.count + 4 + jsonSize($1.value) }
        default: 8
        }
    }

    func installCategories() {
        function("has", in: "categories") { [unowned self] binding, call in
            Arguments.text(call, 0, "has").then { id in .values([.boolean(app.categories.read(report: Self.reporter(binding)) { $0.has(id) })]) }
        }
        function("get", in: "categories") { [unowned self] binding, call in
            Arguments.text(call, 0, "get").then { id in
                .values([app.categories.read(report: Self.reporter(binding)) { $0.get(id) }.map { ValueConversion.lua($0.jsonValue) } ?? .nil])
            }
        }
        function("list", in: "categories") { [unowned self] binding, _ in
            .values([.table(LuaTable(array: app.categories.read(report: Self.reporter(binding)) { $0.list() }.map(LuaValue.text)))])
        }
        function("register", in: "categories") { [unowned self] binding, call in
            let category: NotificationCategory
            do {
                category = try NotificationCategory(json: ValueConversion.json(call[0], path: "category"), firstIndex: 1)
            } catch let error as ConversionError {
                return .error("categories.register: \(error.message)")
            } catch let error as CategoryError {
                return .error("categories.register: \(error.message)")
            } catch {
                return .error("categories.register: \(error)")
            }
            let size = Self.jsonSize(category.jsonValue)
            guard size <= Self.maximumCategoryBytes else {
                return .error("categories.register: the category is about \(size) bytes as JSON; a registered category may have at most \(Self.maximumCategoryBytes) (16 KiB), so shorten its titles")
            }
            app.categories.register(category, report: Self.reporter(binding))
            _ = binding.run.write(binding.token) {
                $0.registeredCategories.append(category.identifier)
                $0.categories.append(category)
            }
            return .none
        }
        function("remove", in: "categories") { [unowned self] binding, call in
            Arguments.text(call, 0, "remove").then { id in
                let report = Self.reporter(binding)
                if app.categories.read(report: report, { $0.isDeclared(id) }) {
                    return .values([.boolean(false), .text("'\(id)' is declared by the app; only registered categories can be removed")])
                }
                let removed = app.categories.remove(id, report: report)
                return removed ? .values([.boolean(true)]) : .values([.boolean(false), .text("no registered category '\(id)'")])
            }
        }
        function("localized", in: "categories") { [unowned self] binding, call in
            Arguments.text(call, 0, "localized").then { base in
                Arguments.text(call, 1, "localized").then { locale in
                    var fallback: String?
                    if !call[2].isNil {
                        guard let f = call[2].stringValue else {
                            return .error("bad argument #3 to 'localized' (string expected, got \(Arguments.describe(call[2])))")
                        }
                        fallback = f
                    }
                    let (id, found) = app.categories.read(report: Self.reporter(binding)) { $0.localized(base: base, locale: locale, fallback: fallback) }
                    return .values([.text(id), .boolean(found)])
                }
            }
        }
    }
}
