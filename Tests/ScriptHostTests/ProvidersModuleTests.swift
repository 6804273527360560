import FixtureTransports
import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// The provider payload samples in `examples/payloads`.
private let payloads = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples/payloads")

private func samplePayload(_ name: String) throws -> Payload {
    try Payload(jsonData: Data(contentsOf: payloads.appendingPathComponent("\(name).json")))
}

/// A script that applies the providers library (with `options`, Lua source) and then writes the
/// category it chose, as `categories.get` returns it, into the subtitle as JSON.
private func script(options: String = "nil") -> Script {
    Script(name: "rules.lua", source: """
        local providers = require "pushscript.providers"
        function didReceive(request, content)
          content.title = tostring(providers.apply(request, content, \(options)))
          local category = categories.get(content.categoryIdentifier)
          content.subtitle = category and json.encode(category) or ""
        end
        """)
}

/// The category the script reported, as JSON.
private func category(_ result: DeliveryResult) throws -> JSONValue {
    try JSONValue(jsonData: Data(result.content.subtitle.utf8))
}

private func actions(_ category: JSONValue) -> [[String: JSONValue]] {
    (category.objectValue?["actions"]?.arrayValue ?? []).compactMap(\.objectValue)
}

@Suite(.serialized) struct ProvidersModuleTests {
    let folder: MediaFolder

    init() throws { folder = try MediaFolder() }

    func host(_ media: [String: [UInt8]] = [:], status: Int = 200) throws -> ScriptHost {
        var answers: [String: FixtureMedia] = [:]
        for (index, (url, bytes)) in media.enumerated() {
            answers[url] = FixtureMedia(file: try folder.write("m\(index)", bytes), status: status)
        }
        return isolatedHost(folder.url.appendingPathComponent("attachments"), media: answers)
    }

    @Test(arguments: [
        ("onesignal", "onesignal"), ("airship", "airship"), ("braze", "braze"), ("firebase", "firebase"),
        ("iterable", "iterable"), ("clevertap", "clevertap"), ("customerio", "customerio"), ("pushwoosh", "pushwoosh"),
        ("batch", "batch"), ("pinpoint", "pinpoint"), ("moengage", "moengage"), ("klaviyo", "klaviyo"),
    ])
    func eachProvidersSampleIsDetected(file: String, name: String) async throws {
        let source = #"local p = require "pushscript.providers" function didReceive(r, c) c.title = tostring(p.detect(c.userInfo)) end"#
        let result = try await deliver(source, payload: try samplePayload(file), host: try host())
        #expect(result.content.title == name)
    }

    @Test func aPlainPushIsNoProviderAndIsLeftAlone() async throws {
        let result = try await deliver(script().source.utf8String, payload: try originalPayload(), host: try host())
        #expect(result.content.title == "nil")
        #expect(result.content.attachments.isEmpty)
        #expect(result.logs.map(\.message) == ["providers: no known provider in the payload"])
    }

    @Test func oneSignalButtonsAreItsDynamicCategoryWithTwoSwapped() async throws {
        let result = try await deliver(script().source.utf8String, payload: try samplePayload("onesignal"), host: try host())
        let category = try category(result)
        #expect(category.objectValue?["identifier"] == .string("__onesignal__dynamic__6f1c2b4e-8a5d-4e3b-9c1a-2d7e5f0a9b11"))
        #expect(actions(category).map { $0["identifier"] } == [.string("remind-later"), .string("shop-now")])
        #expect(actions(category).map { $0["title"] } == [.string("Remind me later"), .string("Shop now")])
        #expect(actions(category).allSatisfy { $0["options"] == .array([.string("foreground")]) })
        #expect(category.objectValue?["options"] == .array([.string("customDismissAction")]))
        #expect(result.content.badge == 1)
    }

    @Test func iterableButtonsKeepTheirSDKsOptionsAndTextInput() async throws {
        let result = try await deliver(script().source.utf8String, payload: try samplePayload("iterable"), host: try host())
        let list = actions(try category(result))
        #expect(list.map { $0["identifier"] } == [.string("confirm"), .string("reply"), .string("cancel")])
        #expect(list[0]["options"] == .array([]))
        #expect(list[1]["textInput"] == .object(["buttonTitle": .string("Send"), "placeholder": .string("Type a message")]))
        #expect(list[2]["options"] == .array([.string("destructive"), .string("foreground"), .string("authenticationRequired")]))
    }

    @Test func klaviyoButtonsAreItsCategoryNamedByTheRequestInTheirOrder() async throws {
        let request = NotificationRequest(payload: try samplePayload("klaviyo"), app: "com.example.app", identifier: "apns-1")
        let result = await (try host()).deliver(request, script: .script(script()))
        let registered = try category(result)
        #expect(registered.objectValue?["identifier"] == .string("com.klaviyo.button.apns-1"))
        #expect(registered.objectValue?["options"] == .array([.string("customDismissAction")]))
        #expect(actions(registered).map { $0["identifier"] } == [.string("com.klaviyo.action.track"), .string("com.klaviyo.action.open")])
        #expect(actions(registered).allSatisfy { $0["options"] == .array([.string("foreground")]) && $0["icon"] == nil })
        // without a request identifier of its own, the host's new UUID names it
        let other = try await deliver(script().source.utf8String, payload: try samplePayload("klaviyo"), host: try host())
        let name = try #require(try category(other).objectValue?["identifier"]?.stringValue)
        #expect(name.hasPrefix("com.klaviyo.button.") && UUID(uuidString: String(name.dropFirst("com.klaviyo.button.".count))) != nil)
    }

    @Test func klaviyoButtonsNeedTheRequestIdentifierWhenAskedForAlone() async throws {
        let source = """
            local p = require "pushscript.providers"
            function didReceive(r, c)
              local without, why = p.buttons(c.userInfo)
              local with = p.buttons(c.userInfo, nil, "apns-2")
              c.title = tostring(without) .. " " .. why
              c.body = with.identifier
            end
            """
        let result = try await deliver(source, payload: try samplePayload("klaviyo"), host: try host())
        #expect(result.content.title == "nil the request's identifier is needed to name Klaviyo's category")
        #expect(result.content.body == "com.klaviyo.button.apns-2")
    }

    @Test func mediaThatFailsIsLoggedAndWhatWasDoneIsLoggedAtDebug() async throws {
        let url = "https://cdn.example.com/push/parcel.gif"
        let failing = try host([url: MediaFolder.jpeg], status: 404)
        let failed = try await deliver(script().source.utf8String, payload: try samplePayload("airship"), host: failing)
        #expect(failed.outcome == .completed)
        #expect(failed.content.title == "airship")
        #expect(failed.content.attachments.isEmpty)
        #expect(failed.logs.contains { $0.level == .warn && $0.message.hasPrefix("airship: media \(url) not downloaded: http 404") })

        let working = try host([url: MediaFolder.jpeg])
        let done = try await deliver(script().source.utf8String, payload: try samplePayload("airship"), host: working)
        // the attachment's identifier is url_id, else a new UUID (UNNotificationAttachment's for "")
        #expect(done.content.attachments.count == 1)
        #expect(UUID(uuidString: done.content.attachments.first?.identifier ?? "") != nil)
        #expect(done.logs.filter { $0.source == nil && $0.level != .debug }.isEmpty, "\(done.logs)")
        #expect(done.logs.contains { $0.level == .debug && $0.message.hasPrefix("airship: attached \(url) (public.jpeg") })
        #expect(done.logs.contains { $0.level == .debug && $0.message == "airship: text replaced" })
    }

    @Test func aFailingPartNeverStopsTheOthers() async throws {
        let url = "https://cdn.example.com/push/stadium.jpg"
        let result = try await deliver(
            script(options: "{badgeKey = 42}").source.utf8String, payload: try samplePayload("pushwoosh"), host: try host([url: MediaFolder.jpeg]))
        #expect(result.outcome == .completed)
        #expect(result.content.badge == nil)
        #expect(result.content.attachments.map(\.type) == ["public.jpeg"])
        #expect(result.logs.contains { $0.level == .warn && $0.message.hasPrefix("pushwoosh: badge failed: ") })
    }

    @Test func eachPartCanBeTurnedOff() async throws {
        let url = "https://cdn.example.com/push/sale-banner.jpg?filename=sale-banner.jpg"
        let result = try await deliver(
            script(options: "{media = false, buttons = false, badge = false}").source.utf8String,
            payload: try samplePayload("onesignal"), host: try host([url: MediaFolder.jpeg]))
        #expect(result.content.title == "onesignal")
        #expect(result.content.attachments.isEmpty)
        #expect(result.content.categoryIdentifier == "")
        #expect(result.content.badge == nil)
        #expect(result.registeredCategories.isEmpty)
    }

    @Test func thePartsOnTheirOwn() async throws {
        let source = """
            local p = require "pushscript.providers"
            function didReceive(request, content)
              local info = content.userInfo
              local media = p.media(info)
              local badge = p.badge(info)
              local buttons = p.buttons(info)
              content.body = json.encode({#media, media[1].identifier, badge.increment, buttons.identifier, #p.names()})
            end
            """
        let result = try await deliver(source, payload: try samplePayload("onesignal"), host: try host())
        #expect(result.content.body == #"[1,"id",1,"__onesignal__dynamic__6f1c2b4e-8a5d-4e3b-9c1a-2d7e5f0a9b11",17]"#)
    }

    @Test(arguments: [
        ("onesignal", [nil, ActionIcon.system("cart")]),
        ("iterable", [nil, nil, ActionIcon.system("xmark.circle")]),
    ])
    func buttonsCarryTheIconsTheirPayloadsName(file: String, icons: [ActionIcon?]) async throws {
        let result = try await deliver(script().source.utf8String, payload: try samplePayload(file), host: try host())
        #expect(result.categories.count == 1)
        #expect(result.categories.first?.actions.map(\.icon) == icons)
    }

    @Test func imageIconsAreTemplatesAndIconsNamedWronglyAreLeftOut() async throws {
        let oneSignal = try payload("""
            {"aps": {"alert": "x", "mutable-content": 1}, "custom": {"i": "n1"}, "buttons": [
              {"i": "a", "n": "A", "icon_type": "custom", "path": "reply-icon"},
              {"i": "b", "n": "B", "icon_type": "emoji", "path": "x"},
              {"i": "c", "n": "C", "icon_type": "system", "path": ""}]}
            """)
        let first = try await deliver(script().source.utf8String, payload: oneSignal, host: try host())
        #expect(first.categories.first?.actions.map(\.icon) == [.template("reply-icon"), nil, nil])

        let iterable = try payload("""
            {"aps": {"alert": "x", "mutable-content": 1}, "itbl": {"messageId": "m1", "actionButtons": [
              {"identifier": "a", "title": "A", "actionIcon": {"iconType": "templateImage", "imageName": "star-icon"}},
              {"identifier": "b", "title": "B", "actionIcon": {"iconType": "systemImage"}},
              {"identifier": "c", "title": "C", "actionIcon": "star"}]}}
            """)
        let second = try await deliver(script().source.utf8String, payload: iterable, host: try host())
        #expect(second.categories.first?.actions.map(\.icon) == [.template("star-icon"), nil, nil])
        #expect(second.logs.allSatisfy { $0.level != .warn }, "\(second.logs)")
    }

    @Test func cleverTapMediaNeedsItsTypeAsItsExtensionDoes() async throws {
        let source = """
            local p = require "pushscript.providers"
            function didReceive(request, content)
              local info = content.userInfo
              local without = table.pack(p.media(info))
              info.ct_mediaType = "image"
              local with = p.media(info)
              content.body = json.encode({without.n, #without[1], #with, with[1].kind})
              content.title = without[2]
            end
            """
        let payload = try payload("""
            {"aps": {"alert": "x", "mutable-content": 1}, "W$id": "1", "ct_mediaUrl": "https://cdn.example.com/a.jpg"}
            """)
        let result = try await deliver(source, payload: payload, host: try host())
        #expect(result.content.body == #"[2,0,1,"image"]"#)
        #expect(result.content.title == "ct_mediaUrl without ct_mediaType: not attached, as CleverTap's extension does")
    }

    @Test(arguments: [("clevertap", "CTNotification"), ("moengage", "INVITE_CATEGORY")])
    func providersWhoseAppsRegisterTheirCategoriesKeepThePayloadsCategory(file: String, category: String) async throws {
        var json = try JSONValue(jsonData: Data(contentsOf: payloads.appendingPathComponent("\(file).json")))
        guard case .object(var root) = json, case .object(var aps) = root["aps"] else { Issue.record("no aps"); return }
        aps["category"] = .string(category)
        root["aps"] = .object(aps)
        json = .object(root)
        let result = try await deliver(script().source.utf8String, payload: try Payload(jsonData: json.jsonData()), host: try host())
        #expect(result.content.title == file)
        #expect(result.content.categoryIdentifier == category)
        #expect(result.registeredCategories.isEmpty)
    }

    @Test(arguments: [
        ("+99999999999999999999", 2_147_483_647, nil),  // integerValue saturates; the count stops at the largest badge kept
        ("abc", 0, "read as 0"), ("+", 0, "read as +0"), (" 12 boxes", 12, "read as 12"),
    ] as [(String, Int, String?)])
    func pushwooshBadgeValuesAreReadAsNSStringsIntegerValue(raw: String, badge: Int, note: String?) async throws {
        let payload = try payload(#"{"aps": {"alert": "x", "mutable-content": 1, "pw_badge": "\#(raw)"}, "pw_msg": "1"}"#)
        let result = try await deliver(script().source.utf8String, payload: payload, host: try host())
        #expect(result.outcome == .completed)
        #expect(result.content.badge == badge)
        if let note {
            #expect(result.logs.contains { $0.level == .warn && $0.message == "pushwoosh: aps.pw_badge '\(raw)' is not N, +N or -N; \(note), as Pushwoosh's SDK reads it" })
        } else {
            #expect(!result.logs.contains { $0.level == .warn }, "\(result.logs)")
        }
    }

    @Test func aPwBadgeOutsideAPushwooshPushIsNotCounted() async throws {
        let payload = try payload(#"{"aps": {"alert": "x", "mutable-content": 1, "pw_badge": "+3"}}"#)
        let source = #"local p = require "pushscript.providers" function didReceive(r, c) p.apply(r, c) c.title = tostring(store.get("badge")) end"#
        let result = try await deliver(source, payload: payload, host: try host())
        #expect(result.content.badge == nil)
        #expect(result.content.title == "nil")
    }
}

extension [UInt8] {
    var utf8String: String { String(decoding: self, as: UTF8.self) }
}
