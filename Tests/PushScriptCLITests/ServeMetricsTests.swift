@testable import pushscript
import ScriptHost
import Testing

/// The metrics file adds up the lanes' counts.
@Suite struct ServeMetricsTests {
    static let gauges = ServeMetrics.Gauges(luaThreads: 0, workers: 0, pendingLines: 0)

    @Test func theScriptInfoIsTheScriptThatAnsweredLastWhicheverLaneItWasOn() {
        let metrics = ServeMetrics()
        let first = metrics.lane(), second = metrics.lane()
        // The app is answered by the old script on the second lane, then (after a reload) by
        // the new one on the first lane.
        second.record(app: "a", outcome: "modified", reason: nil, script: ScriptIdentity(version: 1, sha256: "old"), seconds: 0.001)
        first.record(app: "a", outcome: "modified", reason: nil, script: ScriptIdentity(version: 2, sha256: "new"), seconds: 0.001)
        let text = metrics.render(Self.gauges)
        #expect(text.contains(#"pushscript_serve_script_info{app="a",sha256="new",version="2"} 1"#))
        #expect(!text.contains(#"sha256="old""#))
        #expect(text.contains(#"pushscript_serve_deliveries_total{app="a",outcome="modified"} 2"#))
    }
}
