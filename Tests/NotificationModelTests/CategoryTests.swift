import Foundation
import Testing
import NotificationModel

@Suite struct CategoryDecodingTests {
    static let full: JSONValue = [
        "identifier": "reservation",
        "actions": [
            ["identifier": "confirm", "title": "Confirm"],
            ["identifier": "reply", "title": "Message host", "options": ["foreground"],
             "textInput": ["buttonTitle": "Send", "placeholder": "Type a message"]],
            ["identifier": "cancel", "title": "Cancel booking", "options": ["destructive", "authenticationRequired"]],
        ],
        "options": ["customDismissAction", "allowInCarPlay", "hiddenPreviewsShowTitle", "hiddenPreviewsShowSubtitle"],
    ]

    @Test func optionNamesAreApples() {
        #expect(ActionOption.allCases.map(\.rawValue) == ["foreground", "destructive", "authenticationRequired"])
        #expect(CategoryOption.allCases.map(\.rawValue)
            == ["customDismissAction", "allowInCarPlay", "hiddenPreviewsShowTitle", "hiddenPreviewsShowSubtitle", "allowAnnouncement"])
    }

    @Test func fullCategory() throws {
        let category = try NotificationCategory(json: Self.full)
        #expect(category.identifier == "reservation")
        #expect(category.options == [.customDismissAction, .allowInCarPlay, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle])
        #expect(category.actions == [
            NotificationAction(identifier: "confirm", title: "Confirm"),
            NotificationAction(identifier: "reply", title: "Message host", options: [.foreground],
                               textInput: .init(buttonTitle: "Send", placeholder: "Type a message")),
            NotificationAction(identifier: "cancel", title: "Cancel booking", options: [.destructive, .authenticationRequired]),
        ])
    }

    @Test func minimalCategory() throws {
        let category = try NotificationCategory(json: ["identifier": "news"])
        #expect(category == NotificationCategory(identifier: "news"))
        // Empty Lua tables arrive as empty objects: they are empty lists here.
        let empty = try NotificationCategory(json: ["identifier": "news", "actions": [:], "options": [:]])
        #expect(empty == category)
    }

    @Test func encodesBackToTheSameShape() throws {
        let category = try NotificationCategory(json: Self.full)
        var expected = Self.full
        // Every action gets its options list, as the category itself has.
        if case .object(var members) = expected, case .array(var actions)? = members["actions"] {
            actions[0] = ["identifier": "confirm", "title": "Confirm", "options": []]
            members["actions"] = .array(actions)
            expected = .object(members)
        }
        #expect(category.jsonValue == expected)
        #expect(try NotificationCategory(json: category.jsonValue) == category)
        #expect(try NotificationCategory(json: ["identifier": "x"]).jsonValue == ["identifier": "x", "actions": [], "options": []])
    }

    @Test func writtenInItsOwnOrder() throws {
        let category = NotificationCategory(
            identifier: "c",
            actions: [.init(identifier: "a", title: "A", options: [.foreground], textInput: .init(buttonTitle: "B", placeholder: "P"))],
            options: [.allowInCarPlay]
        )
        #expect(try category.jsonString()
            == #"{"identifier":"c","actions":[{"identifier":"a","title":"A","options":["foreground"],"#
            + #""textInput":{"buttonTitle":"B","placeholder":"P"}}],"options":["allowInCarPlay"]}"#)
    }

    @Test func listFromAFile() throws {
        let text = #"[{"identifier": "news_en", "actions": [{"identifier": "read", "title": "Read"}]}, {"identifier": "news_fr"}]"#
        let categories = try NotificationCategory.list(jsonData: Data(text.utf8))
        #expect(categories.map(\.identifier) == ["news_en", "news_fr"])
        #expect(categories[0].actions.map(\.identifier) == ["read"])
        #expect(try NotificationCategory.list(json: []) == [])
    }

    @Test func codableUsesTheSameShapeAndChecks() throws {
        let category = try NotificationCategory(json: Self.full)
        let data = try JSONEncoder().encode(category)
        #expect(try JSONValue(jsonData: data) == category.jsonValue)
        #expect(try JSONDecoder().decode(NotificationCategory.self, from: data) == category)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(NotificationCategory.self, from: Data(#"{"identifier": ""}"#.utf8))
        }
    }
}

@Suite struct CategoryErrorTests {
    func refusal(_ json: JSONValue) -> String? {
        message { try NotificationCategory(json: json) }
    }

    @Test func categoryShape() {
        #expect(refusal("news") == "category must be {identifier=, actions=, options=, intentIdentifiers=}")
        #expect(refusal([]) == "category must be {identifier=, actions=, options=, intentIdentifiers=}")
        #expect(refusal([:]) == "identifier must be a non-empty string")
        #expect(refusal(["identifier": ""]) == "identifier must be a non-empty string")
        #expect(refusal(["identifier": 5]) == "identifier must be a non-empty string")
        #expect(refusal(["identifier": "x", "action": []])
            == "category has no field 'action'; it takes identifier, actions, options, intentIdentifiers, hiddenPreviewsBodyPlaceholder, categorySummaryFormat")
        #expect(refusal(["identifier": "x", "actions": "read"]) == "actions must be a list of actions")
        #expect(refusal(["identifier": "x", "actions": ["a": 1]]) == "actions must be a list of actions")
    }

    @Test func categoryOptions() {
        #expect(refusal(["identifier": "x", "options": ["allowInCarplay"]])
            == "options: unknown option 'allowInCarplay'; use customDismissAction, allowInCarPlay, hiddenPreviewsShowTitle, hiddenPreviewsShowSubtitle or allowAnnouncement")
        #expect(refusal(["identifier": "x", "options": "allowInCarPlay"]) == "options must be a list of option names")
        #expect(refusal(["identifier": "x", "options": ["allowInCarPlay", 3]]) == "options[1] must be an option name (a string)")
    }

    @Test func actionErrorsNameTheirPath() {
        let good: JSONValue = ["identifier": "a", "title": "A"]
        func category(third action: JSONValue) -> JSONValue {
            ["identifier": "x", "actions": [good, good, action]]
        }
        #expect(refusal(category(third: ["identifier": "c", "title": "C", "options": ["foo"]]))
            == "actions[2].options: unknown option 'foo'; use foreground, destructive or authenticationRequired")
        #expect(refusal(category(third: ["identifier": "c", "title": "C", "options": ["Foreground"]]))?
            .hasPrefix("actions[2].options: unknown option 'Foreground'") == true)
        #expect(refusal(category(third: ["title": "C"])) == "actions[2].identifier must be a non-empty string")
        #expect(refusal(category(third: ["identifier": "c"])) == "actions[2].title must be a string")
        #expect(refusal(category(third: ["identifier": "c", "title": 3])) == "actions[2].title must be a string")
        #expect(refusal(category(third: "c")) == "actions[2] must be {identifier=, title=, options=, textInput=, icon=}")
        #expect(refusal(category(third: ["identifier": "c", "title": "C", "icon": "x"]))
            == "actions[2].icon must be {system = NAME} or {template = NAME}")
        #expect(refusal(category(third: ["identifier": "c", "title": "C", "icon": ["system": "a", "template": "b"]]))
            == "actions[2].icon must be {system = NAME} or {template = NAME}")
        #expect(refusal(category(third: ["identifier": "c", "title": "C", "colour": "x"]))
            == "actions[2] has no field 'colour'; it takes identifier, title, options, textInput, icon")
        #expect(refusal(category(third: ["identifier": "c", "title": "C", "options": "foreground"]))
            == "actions[2].options must be a list of option names")
    }

    @Test func textInputErrors() {
        func category(textInput: JSONValue) -> JSONValue {
            ["identifier": "x", "actions": [["identifier": "r", "title": "Reply", "textInput": textInput]]]
        }
        #expect(refusal(category(textInput: "Send")) == "actions[0].textInput must be {buttonTitle=, placeholder=}")
        #expect(refusal(category(textInput: ["placeholder": "…"])) == "actions[0].textInput.buttonTitle must be a string")
        #expect(refusal(category(textInput: ["buttonTitle": "Send"])) == "actions[0].textInput.placeholder must be a string")
        #expect(refusal(category(textInput: ["buttonTitle": "Send", "placeholder": "", "x": 1]))
            == "actions[0].textInput has no field 'x'; it takes buttonTitle, placeholder")
    }

    @Test func listErrorsNameTheCategory() {
        #expect(message { try NotificationCategory.list(json: ["identifier": "x"]) } == "categories must be a list of categories")
        #expect(message { try NotificationCategory.list(json: [["identifier": "a"], ["identifier": "b", "actions": [["identifier": "r"]]]]) }
            == "categories[1].actions[0].title must be a string")
        #expect(message { try NotificationCategory.list(json: [["identifier": "a"], 5]) }
            == "categories[1] must be {identifier=, actions=, options=, intentIdentifiers=}")
        #expect(message { try NotificationCategory.list(json: [["identifier": "a", "bad": 1]]) }
            == "categories[0] has no field 'bad'; it takes identifier, actions, options, intentIdentifiers, hiddenPreviewsBodyPlaceholder, categorySummaryFormat")
        #expect(message { try NotificationCategory.list(jsonData: Data("[{".utf8)) }?.hasPrefix("categories are not valid JSON: ") == true)
    }

    @Test func iconsIntentsAndPlaceholdersRoundTrip() throws {
        let json: JSONValue = [
            "identifier": "chat",
            "actions": [
                ["identifier": "like", "title": "Like", "options": [], "icon": ["system": "hand.thumbsup"]],
                ["identifier": "open", "title": "Open", "options": ["foreground"], "icon": ["template": "open-icon"]],
            ],
            "options": ["allowAnnouncement"],
            "intentIdentifiers": ["INSendMessageIntentIdentifier"],
            "hiddenPreviewsBodyPlaceholder": "%u new messages",
            "categorySummaryFormat": "%u more",
        ]
        let category = try NotificationCategory(json: json)
        #expect(category.actions.map(\.icon) == [.system("hand.thumbsup"), .template("open-icon")])
        #expect(category.intentIdentifiers == ["INSendMessageIntentIdentifier"])
        #expect(category.hiddenPreviewsBodyPlaceholder == "%u new messages")
        #expect(category.categorySummaryFormat == "%u more")
        #expect(category.jsonValue == json)
        #expect(refusal(["identifier": "x", "intentIdentifiers": "a"]) == "intentIdentifiers must be a list of strings")
        #expect(refusal(["identifier": "x", "hiddenPreviewsBodyPlaceholder": 3]) == "hiddenPreviewsBodyPlaceholder must be a string")
    }

    @Test func luaCountsFromOne() {
        let json: JSONValue = ["identifier": "x", "actions": [["identifier": "a", "title": "A", "options": ["nope"]]]]
        #expect(throws: CategoryError.self) { try NotificationCategory(json: json, firstIndex: 1) }
        do { _ = try NotificationCategory(json: json, firstIndex: 1) } catch {
            #expect(error.message.hasPrefix("actions[1].options: unknown option 'nope'"))
        }
    }
}
