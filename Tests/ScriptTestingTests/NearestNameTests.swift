import Testing
@testable import ScriptTesting

@Suite struct NearestNameTests {
    @Test func misspellingsFindTheNameMeant() {
        let handlers = ["didReceive", "bestAttempt", "afterDelivery"]
        #expect(NearestName.nearest(to: "didRecieve", among: handlers) == "didReceive")  // two letters swapped
        #expect(NearestName.nearest(to: "bestAttemp", among: handlers) == "bestAttempt")
        #expect(NearestName.nearest(to: "afterDelivry", among: handlers) == "afterDelivery")
        #expect(NearestName.nearest(to: "DidReceive", among: handlers) == "didReceive")
        #expect(NearestName.nearest(to: "didReceive", among: handlers) == nil)
        #expect(NearestName.nearest(to: "helper", among: handlers) == nil)
    }

    @Test func optionsFindByEditOrPrefix() {
        let options = ["--app", "--cpu-ms", "--memory-mb", "--time-ms", "--media", "--media-map", "--verbose"]
        #expect(NearestName.nearest(to: "--cpu", among: options) == "--cpu-ms")
        #expect(NearestName.nearest(to: "--verbos", among: options) == "--verbose")
        #expect(NearestName.nearest(to: "--medai", among: options) == "--media")
        #expect(NearestName.nearest(to: "--timeout", among: options) == nil)
        #expect(NearestName.nearest(to: "-x", among: options) == nil)
        #expect(NearestName.hint(for: "--memory", among: options) == "did you mean '--memory-mb'?")
    }

    @Test func shortNamesGetNoGuess() {
        #expect(NearestName.nearest(to: "y", among: ["x"]) == nil)
        #expect(NearestName.nearest(to: "ab", among: ["abc"]) == nil)
        #expect(NearestName.nearest(to: "jsn", among: ["json", "log"]) == "json")
    }

    @Test func distancesCountEdits() {
        #expect(NearestName.distance(Array("kitten"), Array("sitting")) == 3)
        #expect(NearestName.distance(Array("ab"), Array("ba")) == 1)
        #expect(NearestName.distance(Array("Abc"), Array("abc")) == 0.5)
        #expect(NearestName.distance([], Array("abc")) == 3)
    }
}
