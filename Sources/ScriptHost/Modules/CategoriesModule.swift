import LuaSandbox
import NotificationModel

/// `categories.has/get/list/register/remove/localized`: the app's registered categories.
extension HostedSandbox {
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
            .values([.table(LuaTable(array: app.categories.read(report: Self.reporter(binding)) { $0.list() }.map(LuaInput.text)))])
        }
        function("register", in: "categories") { [unowned self] binding, call in
            // Registered categories outlive the request: refuse a large one before building it.
            let size = ValueConversion.approximateJSONBytes(call[0], atMost: NotificationCategory.maximumBytes)
            if size > NotificationCategory.maximumBytes {
                return .error("categories.register: the category is too large: more than \(NotificationCategory.maximumBytes) bytes of identifiers, titles and options; a category takes at most \(NotificationCategory.maximumBytes)")
            }
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
            app.categories.register(category, report: Self.reporter(binding))
            _ = binding.run.write(binding.phase) {
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
