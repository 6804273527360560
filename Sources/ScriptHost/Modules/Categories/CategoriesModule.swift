import LuaSandbox
import NotificationModel

/// `categories.has/get/list/register/remove/localized`: the app's registered categories.
struct CategoriesModule: ScriptModule {
    unowned let host: ModuleHost

    func install() {
        host.function("has", in: "categories") { binding, call in
            Arguments.text(call, 0, "has").then { id in .values([.boolean(host.app.categories.read(report: binding.hostWarnings) { $0.has(id) })]) }
        }
        host.function("get", in: "categories") { binding, call in
            Arguments.text(call, 0, "get").then { id in
                .values([host.app.categories.read(report: binding.hostWarnings) { $0.get(id) }.map(ValueConversion.lua) ?? .nil])
            }
        }
        host.function("list", in: "categories") { binding, _ in
            .values([.table(LuaTable(array: host.app.categories.read(report: binding.hostWarnings) { $0.list() }.map(LuaInput.text)))])
        }
        host.function("register", in: "categories") { binding, call in
            if binding.phase == .afterDelivery { return .error(Self.afterDeliveryMessage("register")) }
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
            // Recorded first: a registration the request's record budget cannot hold is refused
            // whole, the app's categories unchanged. Its size as the result writes it: what the
            // script gave, and the fields the result adds to the category and each action.
            let recorded = size + 256 + 64 * category.actions.count
            let recording = binding.run.record(RegisteredCategories.self, in: binding.phase) { part, budget in
                part.register(category, bytes: recorded, within: &budget)
            }
            switch recording {
            case .recorded: break
            case .refused(let message): return .error("categories.register: \(message)")
            case .phaseOver: return .kill(.time)
            }
            host.app.categories.register(category, report: binding.hostWarnings)
            return .none
        }
        host.function("remove", in: "categories") { binding, call in
            if binding.phase == .afterDelivery { return .error(Self.afterDeliveryMessage("remove")) }
            return Arguments.text(call, 0, "remove").then { id in
                let report = binding.hostWarnings
                if host.app.categories.read(report: report, { $0.isDeclared(id) }) {
                    return .values([.boolean(false), .text("'\(id)' is declared by the app; only registered categories can be removed")])
                }
                let removed = host.app.categories.remove(id, report: report)
                return removed ? .values([.boolean(true)]) : .values([.boolean(false), .text("no registered category '\(id)'")])
            }
        }
        host.function("localized", in: "categories") { binding, call in
            Arguments.text(call, 0, "localized").then { base in
                Arguments.text(call, 1, "localized").then { locale in
                    var fallback: String?
                    if !call[2].isNil {
                        guard let f = call[2].stringValue else {
                            return .error("bad argument #3 to 'localized' (string expected, got \(Arguments.describe(call[2])))")
                        }
                        fallback = f
                    }
                    let (id, found) = host.app.categories.read(report: binding.hostWarnings) { $0.localized(base: base, locale: locale, fallback: fallback) }
                    return .values([.text(id), .boolean(found)])
                }
            }
        }
    }

    /// What `categories.register` and `remove` raise in `afterDelivery`: the categories went
    /// with the content.
    static func afterDeliveryMessage(_ name: String) -> String {
        "categories.\(name) is not allowed after delivery: the categories were handed over with the content"
    }
}
