import Foundation
import Testing
import NotificationModel

@Suite struct ContentDefaultsTests {
    @Test func defaultsAreApples() {
        let content = NotificationContent()
        #expect(content.title == "")
        #expect(content.subtitle == "")
        #expect(content.body == "")
        #expect(content.badge == nil)
        #expect(content.sound == nil)
        #expect(content.categoryIdentifier == "")
        #expect(content.threadIdentifier == "")
        #expect(content.targetContentIdentifier == nil)
        #expect(content.interruptionLevel == .active)
        #expect(content.relevanceScore == 0)
        #expect(content.filterCriteria == nil)
        #expect(content.launchImageName == "")
        #expect(content.summaryArgument == "")
        #expect(content.summaryArgumentCount == 0)
        #expect(content.userInfo.isEmpty)
        #expect(content.attachments.isEmpty)
    }

    @Test func minimalPayloadGivesDefaultsAndItsUserInfo() throws {
        let payload = try Payload(value: ["aps": ["mutable-content": 1]])
        let content = NotificationContent(payload: payload)
        var expected = NotificationContent()
        expected.userInfo = ["aps": ["mutable-content": 1]]
        #expect(content == expected)
    }
}

@Suite struct ContentMappingTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var name: String
        var title = ""
        var subtitle = ""
        var body = ""
        var badge: Int?
        var category = ""
        var thread = ""
        var relevance = 0.0
        var testDescription: String { name }
    }

    static let expectations: [Expected] = [
        Expected(name: "airship", title: "Your order shipped", body: "Track it in the app"),
        Expected(name: "batch", title: "Your weekly recap", body: "3 new articles picked for you"),
        Expected(name: "braze", title: "New episode", body: "Season 2, episode 5 is out now", category: "ab_cat_more"),
        Expected(name: "clevertap", title: "Flash deal", body: "Ends at midnight - don't miss it"),
        Expected(name: "customerio", title: "Welcome aboard", body: "Finish setting up your profile"),
        Expected(name: "firebase", title: "Price drop", body: "An item on your wishlist is now 20% off"),
        Expected(name: "iterable", title: "Reservation reminder", body: "Table for 2 at 7:30 pm tonight"),
        Expected(name: "klaviyo", title: "Package delivered", body: "Your order #12345 was delivered", badge: 1),
        Expected(
            name: "moengage", title: "Your cart misses you", subtitle: "2 items left",
            body: "Complete checkout and get free delivery", badge: 0, category: "MOE_PUSH_TEMPLATE", relevance: 0.5
        ),
        Expected(
            name: "onesignal", title: "Weekend sale", subtitle: "Members only",
            body: "Up to 50% off selected items until Sunday", thread: "promotions"
        ),
        Expected(name: "pinpoint", title: "Back in stock", body: "Your saved sneakers are available again"),
        Expected(name: "pushwoosh", title: "Match starting", body: "Kick-off in 10 minutes"),
    ]

    @Test func everyProviderIsCovered() {
        #expect(Self.expectations.map(\.name) == Fixtures.providers)
    }

    @Test(arguments: expectations)
    func providerPayloadMapsAsIOSDoes(expected: Expected) throws {
        let payload = try Fixtures.payload(expected.name)
        let content = NotificationContent(payload: payload)
        #expect(content.title == expected.title)
        #expect(content.subtitle == expected.subtitle)
        #expect(content.body == expected.body)
        #expect(content.badge == expected.badge)
        #expect(content.sound == .named("default"))
        #expect(content.categoryIdentifier == expected.category)
        #expect(content.threadIdentifier == expected.thread)
        #expect(content.targetContentIdentifier == nil)
        #expect(content.interruptionLevel == .active)
        #expect(content.relevanceScore == expected.relevance)
        #expect(content.filterCriteria == nil)
        #expect(content.launchImageName == "")
        #expect(content.summaryArgument == "")
        #expect(content.summaryArgumentCount == 0)
        #expect(content.userInfo == payload.userInfo)
        #expect(content.attachments.isEmpty)
    }

    @Test func providerDataStaysInUserInfoUntouched() throws {
        let content = NotificationContent(payload: try Fixtures.payload("iterable"))
        #expect(content.userInfo["itbl"]?["attachment-url"] == "https://cdn.example.com/push/restaurant.jpg")
        #expect(content.userInfo["itbl"]?["isGhostPush"]?.boolValue == false)
        guard case .integer(512_345) = content.userInfo["itbl"]?["campaignId"] else {
            Issue.record("campaignId should arrive as an integer")
            return
        }
        let clevertap = NotificationContent(payload: try Fixtures.payload("clevertap"))
        #expect(clevertap.userInfo["W$rnv"] == 1)
    }

    @Test func alertStringIsTheBody() throws {
        let content = NotificationContent(payload: try Payload(value: ["aps": ["alert": "Hello there"]]))
        #expect(content.body == "Hello there")
        #expect(content.title == "")
    }

    @Test func everyAPSKeyReachesItsField() throws {
        let payload = try Payload(value: ["aps": [
            "alert": [
                "title": "T", "subtitle": "S", "body": "B", "launch-image": "Splash",
                "summary-arg": "Anna", "summary-arg-count": 3,
            ],
            "badge": 7.0,
            "sound": ["critical": 1, "name": "siren.caf", "volume": 0.75],
            "category": "cat", "thread-id": "th", "target-content-id": "scene-1",
            "interruption-level": "time-sensitive", "relevance-score": 1, "filter-criteria": "work",
            "mutable-content": 1,
        ]])
        let content = NotificationContent(payload: payload)
        #expect(content.title == "T")
        #expect(content.subtitle == "S")
        #expect(content.body == "B")
        #expect(content.launchImageName == "Splash")
        #expect(content.summaryArgument == "Anna")
        #expect(content.summaryArgumentCount == 3)
        #expect(content.badge == 7)
        #expect(content.sound == .dictionary(name: "siren.caf", critical: true, volume: 0.75))
        #expect(content.categoryIdentifier == "cat")
        #expect(content.threadIdentifier == "th")
        #expect(content.targetContentIdentifier == "scene-1")
        #expect(content.interruptionLevel == .timeSensitive)
        #expect(content.relevanceScore == 1)
        #expect(content.filterCriteria == "work")
    }

    @Test func soundDictionaryWithoutCriticalOrVolume() throws {
        let content = NotificationContent(payload: try Payload(value: ["aps": ["sound": ["name": "a.caf", "critical": 0]]]))
        #expect(content.sound == .dictionary(name: "a.caf", critical: false, volume: nil))
        #expect(content.sound?.name == "a.caf")
    }

    @Test func localizedKeysAloneLeaveTheTextEmpty() throws {
        let payload = try Payload(value: ["aps": ["alert": ["loc-key": "GREETING", "loc-args": ["Anna"]]]])
        let content = NotificationContent(payload: payload)
        #expect(content.body == "")
        #expect(content.userInfo["aps"]?["alert"]?["loc-key"] == "GREETING")
    }
}
