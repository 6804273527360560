import Foundation
import Testing
import NotificationModel

@Suite struct CategoryRegistryTests {
    func category(_ identifier: String, title: String = "Open") -> NotificationCategory {
        NotificationCategory(identifier: identifier, actions: [.init(identifier: "open", title: title)])
    }

    @Test func hasGetList() {
        var registry = CategoryRegistry(declared: [category("b"), category("a")])
        registry.register(category("c"))
        #expect(registry.has("a"))
        #expect(registry.has("c"))
        #expect(!registry.has("d"))
        #expect(!registry.has("A"))
        #expect(registry.get("c") == category("c"))
        #expect(registry.get("zzz") == nil)
        #expect(registry.list() == ["a", "b", "c"])
        #expect(registry.all.map(\.identifier) == ["b", "a", "c"])
    }

    @Test func registerReplacesAndRefreshes() {
        var registry = CategoryRegistry()
        registry.register(category("x", title: "One"))
        registry.register(category("y"))
        registry.register(category("x", title: "Two"))
        #expect(registry.get("x")?.actions.first?.title == "Two")
        #expect(registry.registered.map(\.identifier) == ["y", "x"])
        #expect(registry.list() == ["x", "y"])
    }

    @Test func the129thDropsTheOldestRegistered() {
        var registry = CategoryRegistry(declared: [category("declared-1"), category("declared-2")])
        for index in 0..<128 {
            #expect(registry.register(category("dyn-\(index)")) == nil)
        }
        #expect(registry.registered.count == 128)
        #expect(registry.has("dyn-0"))
        let dropped = registry.register(category("dyn-128"))
        #expect(dropped?.identifier == "dyn-0")
        #expect(!registry.has("dyn-0"))
        #expect(registry.has("dyn-1"))
        #expect(registry.has("dyn-128"))
        #expect(registry.registered.count == 128)
        #expect(registry.has("declared-1"))
        #expect(registry.has("declared-2"))
        #expect(registry.list().count == 130)
    }

    @Test func reRegisteringRefreshesAgainstTheCap() {
        var registry = CategoryRegistry()
        for index in 0..<128 {
            registry.register(category("dyn-\(index)"))
        }
        // Touching the oldest makes it the newest: the next one drops dyn-1 instead.
        #expect(registry.register(category("dyn-0", title: "Again")) == nil)
        #expect(registry.register(category("dyn-new"))?.identifier == "dyn-1")
        #expect(registry.has("dyn-0"))
    }

    @Test func declaredCategoriesAreNeverDropped() {
        var registry = CategoryRegistry()
        for index in 0..<5 {
            registry.declare(category("declared-\(index)"))
        }
        for index in 0..<1000 {
            registry.register(category("dyn-\(index)"))
        }
        for index in 0..<5 {
            #expect(registry.has("declared-\(index)"))
        }
        #expect(registry.registered.count == 128)
        #expect(registry.registered.first?.identifier == "dyn-872")
    }

    @Test func registeringADeclaredIdentifierReplacesItAndKeepsItDeclared() {
        var registry = CategoryRegistry(declared: [category("news", title: "Old")])
        registry.register(category("news", title: "New"))
        #expect(registry.get("news")?.actions.first?.title == "New")
        #expect(registry.declared.map(\.identifier) == ["news"])
        #expect(registry.registered.isEmpty)
        for index in 0..<200 {
            registry.register(category("dyn-\(index)"))
        }
        #expect(registry.get("news")?.actions.first?.title == "New")
    }

    @Test func declaringARegisteredIdentifierMovesIt() {
        var registry = CategoryRegistry()
        registry.register(category("x", title: "Dynamic"))
        registry.declare(category("x", title: "Declared"))
        #expect(registry.registered.isEmpty)
        #expect(registry.declared.map(\.identifier) == ["x"])
        #expect(registry.get("x")?.actions.first?.title == "Declared")
        #expect(CategoryRegistry(declared: [category("d", title: "1"), category("d", title: "2")]).declared
            == [category("d", title: "2")])
    }

    @Test func getReturnsWhatRegisterTook() throws {
        let given: JSONValue = [
            "identifier": "buttons",
            "actions": [["identifier": "go", "title": "Go", "options": ["foreground"],
                         "textInput": ["buttonTitle": "Send", "placeholder": "Say"]]],
            "options": ["allowInCarPlay"],
        ]
        var registry = CategoryRegistry()
        registry.register(try NotificationCategory(json: given))
        #expect(registry.get("buttons")?.jsonValue == given)
    }

    @Test func codableRoundTrip() throws {
        var registry = CategoryRegistry(declared: [category("a")])
        registry.register(category("b"))
        registry.register(category("c"))
        let data = try JSONEncoder().encode(registry)
        let back = try JSONDecoder().decode(CategoryRegistry.self, from: data)
        #expect(back == registry)
        #expect(back.registered.map(\.identifier) == ["b", "c"])
    }

    @Test func decodingAppliesTheCap() throws {
        let registered = (0..<130).map { JSONValue.object(["identifier": .string("d\($0)")]) }
        let data = try JSONValue.object(["declared": [], "registered": .array(registered)]).jsonData()
        let registry = try JSONDecoder().decode(CategoryRegistry.self, from: data)
        #expect(registry.registered.count == 128)
        #expect(registry.registered.first?.identifier == "d2")
    }
}

@Suite struct LocalizedCategoryTests {
    func registry(_ identifiers: String...) -> CategoryRegistry {
        var registry = CategoryRegistry()
        for identifier in identifiers {
            registry.register(NotificationCategory(identifier: identifier))
        }
        return registry
    }

    @Test func exactLocaleWins() {
        let categories = registry("news_fr-CA", "news_fr", "news_en", "news")
        #expect(categories.localized(base: "news", locale: "fr-CA") == ("news_fr-CA", true))
    }

    @Test func languageComesNext() {
        let categories = registry("news_fr", "news_en", "news")
        #expect(categories.localized(base: "news", locale: "fr-CA") == ("news_fr", true))
        #expect(categories.localized(base: "news", locale: "fr_CA") == ("news_fr", true))
        #expect(categories.localized(base: "news", locale: "fr") == ("news_fr", true))
    }

    @Test func theLocaleIsUsedAsWritten() {
        // The rule joins the locale as given: news_fr_CA is not news_fr-CA.
        let categories = registry("news_fr-CA")
        #expect(categories.localized(base: "news", locale: "fr_CA") == ("news", false))
        #expect(categories.localized(base: "news", locale: "fr-CA").identifier == "news_fr-CA")
    }

    @Test func englishIsTheDefaultFallback() {
        let categories = registry("news_en", "news")
        #expect(categories.localized(base: "news", locale: "de-AT") == ("news_en", true))
    }

    @Test func anExplicitFallbackReplacesEnglish() {
        let categories = registry("news_en", "news_es", "news")
        #expect(categories.localized(base: "news", locale: "de-AT", fallback: "es") == ("news_es", true))
        let withoutSpanish = registry("news_en", "news")
        #expect(withoutSpanish.localized(base: "news", locale: "de-AT", fallback: "es") == ("news", true))
    }

    @Test func baseWhenNothingMatches() {
        #expect(registry("news").localized(base: "news", locale: "ja-JP") == ("news", true))
        #expect(registry("other").localized(base: "news", locale: "ja-JP") == ("news", false))
        #expect(CategoryRegistry().localized(base: "news", locale: "en") == ("news", false))
    }

    @Test func fixtureExampleFallsBackToEnglish() throws {
        // SPEC §4's example: locale fr, only news_en declared.
        let categories = CategoryRegistry(declared: try NotificationCategory.list(json: [
            ["identifier": "news_en", "actions": [["identifier": "read", "title": "Read"]]],
        ]))
        #expect(categories.localized(base: "news", locale: "fr") == ("news_en", true))
    }

    @Test func emptyLocale() {
        #expect(registry("news_en").localized(base: "news", locale: "") == ("news_en", true))
        #expect(registry("news_").localized(base: "news", locale: "") == ("news_", true))
        #expect(registry("news_").localized(base: "news", locale: "-CA") == ("news_", true))
    }

    @Test func removeTakesRegisteredCategoriesOnly() {
        var registry = CategoryRegistry(declared: [NotificationCategory(identifier: "declared")])
        registry.register(NotificationCategory(identifier: "dyn"))
        let removed = registry.remove("dyn")
        #expect(removed)
        #expect(!registry.has("dyn"))
        let again = registry.remove("dyn"), declared = registry.remove("declared")
        #expect(!again)
        #expect(!declared)
        #expect(registry.has("declared"))
        #expect(registry.isDeclared("declared"))
    }
}
