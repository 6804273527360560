import Foundation
import Testing
import NotificationModel

@Suite struct PayloadLinterTests {
    func lint(_ value: JSONValue, isAPNS: Bool = false) throws -> [LintFinding] {
        PayloadLinter.lint(data: try value.jsonData(), isAPNS: isAPNS)
    }

    static let atsMessage = "is a plain http URL; iOS refuses it without an App Transport Security exception"

    @Test(arguments: Fixtures.providers)
    func providerPayloadsAreClean(name: String) throws {
        #expect(PayloadLinter.lint(data: try Fixtures.data(name), isAPNS: false) == [])
    }

    @Test func invalidJSONIsOneError() {
        let findings = PayloadLinter.lint(data: Data("{\"aps\":".utf8), isAPNS: false)
        #expect(findings.count == 1)
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.hasPrefix("payload is not valid JSON") == true)
    }

    @Test func nonObjectIsOneError() {
        #expect(PayloadLinter.lint(data: Data("[1]".utf8), isAPNS: false)
            == [LintFinding(.error, "payload is not a JSON object: it is an array")])
    }

    @Test func missingMutableContentIsAnError() throws {
        #expect(try lint(["aps": ["alert": "hi"]]) == [LintFinding(.error, Payload.missingMutableContentMessage)])
        #expect(try lint(["aps": ["alert": "hi", "mutable-content": 0]]) == [LintFinding(.error, Payload.missingMutableContentMessage)])
    }

    @Test func refusedPayloadsAreErrorsWithTheirMessages() throws {
        #expect(try lint(["alert": "hi"]) == [LintFinding(.error, "aps is missing; a payload needs an aps dictionary")])
        #expect(try lint(["aps": "x"]) == [LintFinding(.error, "aps must be a dictionary")])
        #expect(try lint(["aps": ["badge": "1", "mutable-content": 1]]) == [LintFinding(.error, "aps.badge must be an integer >= 0")])
    }

    @Test func everyBrokenRuleIsReported() throws {
        let big: JSONValue = ["aps": ["badge": "1"], "p": .string(String(repeating: "x", count: 5000)), "u": "http://a.example/x"]
        let findings = try lint(big)
        #expect(findings.map(\.severity) == [.error, .error, .error, .warning])
        #expect(findings[0].message.hasPrefix("payload too large: "))
        #expect(findings[1].message == "aps.badge must be an integer >= 0")
        #expect(findings[2].message == Payload.missingMutableContentMessage)
        #expect(findings[3].message == "u \(Self.atsMessage)")
    }

    @Test func sizeBoundary() throws {
        func payload(size: Int) -> JSONValue {
            let base = #"{"aps":{"mutable-content":1},"p":""}"#.utf8.count
            return ["aps": ["mutable-content": 1], "p": .string(String(repeating: "x", count: size - base))]
        }
        #expect(try lint(payload(size: 4096)) == [])
        #expect(try lint(payload(size: 4097)) == [LintFinding(.error, "payload too large: 4097 bytes, APNs allows 4096")])
    }

    @Test func aRepeatedKeyDoesNotHideBytesFromTheSizeRule() throws {
        let pad = String(repeating: "x", count: 1000)
        var text = #"{"aps":{"alert":"Hi","mutable-content":1}"#
        for _ in 0..<5 { text += #","pad":"\#(pad)""# }
        text += "}"
        let findings = PayloadLinter.lint(data: Data(text.utf8), isAPNS: false)
        #expect(findings == [LintFinding(.error, "payload too large: \(text.utf8.count) bytes, APNs allows 4096")])
    }

    @Test func plainHTTPURLsAreWarningsNamingTheirPath() throws {
        let value: JSONValue = [
            "aps": ["alert": ["title": "http://t.example"], "mutable-content": 1],
            "custom": ["u": "http://example.com/sale", "safe": "https://example.com"],
            "buttons": [["url": "https://ok.example"], ["url": "HTTP://EXAMPLE.COM/UPPER"]],
            "text": "see http://example.com",
            "ftp": "ftp://example.com",
        ]
        let findings = try lint(value)
        #expect(findings == [
            LintFinding(.warning, "aps.alert.title \(Self.atsMessage)"),
            LintFinding(.warning, "buttons[1].url \(Self.atsMessage)"),
            LintFinding(.warning, "custom.u \(Self.atsMessage)"),
        ])
    }

    @Test func theSpecExampleMessage() throws {
        let findings = try lint(["aps": ["mutable-content": 1], "custom": ["u": "http://example.com/sale"]])
        #expect(findings.map(\.message)
            == ["custom.u is a plain http URL; iOS refuses it without an App Transport Security exception"])
    }

    @Test func apnsFilesLoseTheirBundleKey() throws {
        let value: JSONValue = ["Simulator Target Bundle": "com.example.news", "aps": ["mutable-content": 1]]
        #expect(try lint(value, isAPNS: true) == [])
        let filler = String(repeating: "x", count: 4096 - #"{"aps":{"mutable-content":1},"p":""}"#.utf8.count)
        let exact: JSONValue = ["Simulator Target Bundle": "com.example.news", "aps": ["mutable-content": 1], "p": .string(filler)]
        #expect(try lint(exact, isAPNS: true) == [])
        #expect(try lint(exact, isAPNS: false).first?.message == "payload too large: 4141 bytes, APNs allows 4096")
        #expect(try lint(["Simulator Target Bundle": 1, "aps": ["mutable-content": 1]], isAPNS: true)
            == [LintFinding(.error, "Simulator Target Bundle must be a string (the app's bundle identifier)")])
    }

    @Test func findingDescription() {
        #expect(LintFinding(.warning, "x").description == "warning: x")
        #expect(LintFinding(.error, "y").description == "error: y")
    }
}
